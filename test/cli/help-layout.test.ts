import { describe, expect, it } from 'vitest';
import { formatHelp, helpLayout } from '../../src/cli/help-layout.js';
import { createProgram, topHelpLayout } from '../../src/cli/main.js';

/** What commander itself prints for `taskweave --help` on a terminal `width` columns wide. */
function commanderHelp(width: number | undefined): string {
  let written = '';
  const program = createProgram(() => {});
  program.configureOutput({
    writeOut: (text) => {
      written += text;
    },
    getOutHelpWidth: () => width as number,
    getOutHasColors: () => false,
  });
  program.outputHelp();
  return written;
}

describe('the top-level help laid out without commander', () => {
  const layout = topHelpLayout();

  it('equals commander’s help at every width, and for a pipe (no width: 80)', () => {
    for (const width of [undefined, 1, 20, 39, 40, 41, 50, 60, 66, 67, 68, 79, 80, 81, 100, 120, 200, 400]) {
      expect(formatHelp(layout, width), `width ${width}`).toBe(commanderHelp(width));
    }
  });

  it('follows commander for arguments, option groups, preformatted descriptions and no text after', () => {
    const program = createProgram(() => {})
      .argument('[goal]', 'what to do')
      .option('--plain <text>', 'a description\n  laid out by hand, kept as it is');
    program.commands[0]?.helpGroup('Talking:');
    let written = '';
    program.configureOutput({ writeOut: (text) => (written += text), getOutHelpWidth: () => 70 });
    program.outputHelp();
    const withoutAfter = written.slice(0, written.indexOf('\nExamples:'));
    expect(withoutAfter).toContain('Arguments:');
    expect(withoutAfter).toContain('Talking:');
    expect(formatHelp(helpLayout(program, ''), 70)).toBe(withoutAfter);
  });
});
