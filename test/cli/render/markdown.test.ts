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

  it('shows a long paragraph as it streams: its settled rows before it ends, the same text in the end', () => {
    const paragraph =
      'The build failed because src/index.ts assigned a string to a number, so I changed the ' +
      'declared type, ran the compiler again and then ran the whole test suite, which passes now ' +
      'on Node 20 and on Node 22, with the same twelve tests as before and no new warnings at all.';
    const text = `${paragraph}\n\nDone.`;
    const stream = new MarkdownStream(colours, () => 80);
    let shown = '';
    let pushed = '';
    let shownMidParagraph = '';
    for (const piece of text.match(/[\s\S]{1,3}/g) ?? []) {
      shown += stream.push(piece);
      pushed += piece;
      // What was drawn while the paragraph's last words had not come yet.
      if (!pushed.includes('no new warnings')) shownMidParagraph = shown;
    }
    // Rows came while the paragraph was still streaming, and never a row that changed later.
    expect(plain(shownMidParagraph)).toMatch(
      /^The build failed because src\/index\.ts assigned a string to a/,
    );
    shown += stream.flush();
    expect(shown).toBe(renderMarkdown(text, colours));
  });

  it('streamed at any cut, draws exactly what the whole text renders to (markup, lists, tables, code)', () => {
    const texts = [
      ANSWER,
      `Some **bold words that go on for quite a while across the row boundary of the terminal** and \`code spans that also run long\` and a [link to the docs](https://example.com/docs) after which the text goes on.\n\nNext paragraph with snake_case_names and _emphasis that spans words_ to the end.`,
      `Intro line\n| a | b |\n|---|---|\n| 1 | 2 |\n\n${'word '.repeat(40)}\n- item one\n- item two`,
      `A paragraph with a soft\nbreak in it that keeps going for long enough to wrap onto a second row at eighty columns.\n\n---\n\nAfter the rule.`,
    ];
    for (const text of texts) {
      for (const size of [1, 2, 7, 23]) {
        for (const lead of [0, 7]) {
          const stream = new MarkdownStream(colours, () => 80, lead);
          let shown = '';
          for (const piece of text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [])
            shown += stream.push(piece);
          shown += stream.flush();
          expect(shown, `${size} ${lead} ${text}`).toBe(renderMarkdown(text, colours, 80, lead));
        }
      }
    }
  });

  it('draws nothing of a paragraph past markup still open, nor of a table before its rule', () => {
    const stream = new MarkdownStream(colours, () => 40);
    const open = stream.push(`Intro words that fill the first row here. **then bold ${'words '.repeat(20)}`);
    expect(plain(open)).toBe('Intro words that fill the first row');
    expect(plain(open)).not.toContain('**');
    const table = new MarkdownStream(colours, () => 40);
    expect(table.push(`| a long header cell | and another long header cell | x |\n`)).toBe('');
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
