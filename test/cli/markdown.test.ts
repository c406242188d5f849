import { describe, expect, it } from 'vitest';
import { renderMarkdown, visibleLength } from '../../src/cli/markdown.js';
import { MarkdownStream } from '../../src/cli/markdown-stream.js';
import { styleFor } from '../../src/cli/terminal.js';

const colours = styleFor({ isTTY: true }, { FORCE_COLOR: '1' });
const BOLD = '\u001b[1m';

/** The text as the screen shows it (escape sequences dropped). */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

const ANSWER = [
  '## Fixed the build',
  '',
  'The **type error** in `src/index.ts` is gone.',
  '',
  '- first',
  '- second',
  '  1. nested',
  '',
  '| file | lines |',
  '|---|--:|',
  '| a.ts | 12 |',
  '| long-name.ts | 3 |',
  '',
  '```ts',
  'const total: string = prices[0].toFixed(2);',
  '```',
].join('\n');

describe('markdown on a terminal', () => {
  it('renders headings and bold in bold, lists with bullets and numbers, code behind a gutter, tables aligned', () => {
    const rendered = renderMarkdown(ANSWER, colours);
    expect(rendered).toContain(`${BOLD}`);
    expect(rendered).toContain(`${BOLD}type error`);
    expect(plain(rendered).split('\n')).toEqual([
      'Fixed the build',
      '',
      'The type error in src/index.ts is gone.',
      '',
      '• first',
      '• second',
      '  1. nested',
      '',
      'file          lines',
      '────────────  ─────',
      'a.ts             12',
      'long-name.ts      3',
      '',
      'ts',
      '│ const total: string = prices[0].toFixed(2);',
    ]);
  });

  it('streamed in small pieces, shows each block once it is complete and the same text in the end', () => {
    const stream = new MarkdownStream(colours, () => 80);
    let shown = '';
    const pieces = ANSWER.match(/[\s\S]{1,5}/g) ?? [];
    let shownBeforeFence = '';
    for (const piece of pieces) {
      shown += stream.push(piece);
      if (!shown.includes('│') && shown.includes('long-name.ts')) shownBeforeFence = shown;
    }
    // The table was shown before the text ended; the code block only once it was whole.
    expect(plain(shownBeforeFence)).toContain('long-name.ts      3');
    expect(plain(shown)).not.toContain('│ const');
    shown += stream.flush();
    expect(plain(shown)).toBe(plain(renderMarkdown(ANSWER, colours)));
  });

  it('counts the columns a styled text takes', () => {
    expect(visibleLength(colours.bold('héllo'))).toBe(5);
  });
});
