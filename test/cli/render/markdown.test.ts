import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/cli/render/markdown.js';
import { MarkdownStream } from '../../../src/cli/render/markdown-stream.js';
import { visibleLength, wrapStyled } from '../../../src/cli/render/styled-text.js';
import { styleFor } from '../../../src/cli/render/terminal.js';

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
    expect(visibleLength('日本')).toBe(4);
  });

  it('wraps prose between words, list items and quotes under their own indentation; code is left whole', () => {
    const words = 'The build failed because src/index.ts assigned a string to a number';
    const code = `const message = '${'x'.repeat(70)}';`;
    const text = [
      `${words}, so I changed the **declared type** and ran it again.`,
      '',
      `- ${words}.`,
      '',
      `> ${words}.`,
      '',
      '```',
      code,
      '```',
    ].join('\n');
    const rows = plain(renderMarkdown(text, colours, 40)).split('\n');
    expect(rows).toEqual([
      'The build failed because src/index.ts',
      'assigned a string to a number, so I',
      'changed the declared type and ran it',
      'again.',
      '',
      '• The build failed because src/index.ts',
      '  assigned a string to a number.',
      '',
      '│ The build failed because src/index.ts',
      '│ assigned a string to a number.',
      '',
      `│ ${code}`,
    ]);
    // Bold that spans a break is still closed and reopened by the escape sequences around it.
    expect(renderMarkdown(text, colours, 40)).toContain(BOLD);
  });

  it('leaves room on the first row for a label written before the text', () => {
    const text = 'The project exists, so the remaining work is the entry point and the page.';
    const [first, second] = plain(renderMarkdown(text, colours, 40, 'reason: '.length)).split('\n');
    expect(`reason: ${first}`).toBe('reason: The project exists, so the');
    expect(second).toBe('remaining work is the entry point and');
  });
});

describe('wrapStyled', () => {
  it("breaks between words, keeps a line's indentation and a long word whole, and ignores colours", () => {
    expect(wrapStyled('    one two three four five six', 16).split('\n')).toEqual([
      '    one two',
      '    three four',
      '    five six',
    ]);
    const url = `https://example.com/${'a'.repeat(30)}`;
    expect(wrapStyled(`see ${url} now`, 20).split('\n')).toEqual(['see', url, 'now']);
    const styled = colours.green('✓ done') + colours.dim(' — wrote the changelog and the readme');
    expect(wrapStyled(styled, 30).split('\n').map(plain)).toEqual([
      '✓ done — wrote the changelog',
      'and the readme',
    ]);
    expect(wrapStyled('short', 20, 10)).toBe('short');
  });
});
