import { describe, expect, it } from 'vitest';
import { ownText, wrapOwnText } from '../../../src/cli/render/own-text.js';
import { visibleLength } from '../../../src/cli/render/styled-text.js';

const HELP_ROW =
  '  /approval [ask|edits|auto|plan-only]  show or switch when tool calls are asked (from the next call on, also in a running goal)';

describe('wrapOwnText', () => {
  it('wraps a two-column row between words, its description continuing under itself', () => {
    expect(wrapOwnText(HELP_ROW, 79).split('\n')).toEqual([
      '  /approval [ask|edits|auto|plan-only]  show or switch when tool calls are',
      '                                        asked (from the next call on, also in a',
      '                                        running goal)',
    ]);
  });

  it('wraps a numbered item under its text and a plain line at word boundaries', () => {
    const item =
      '  4. an API key in the environment: OPENAI_API_KEY (uses openai:gpt-4.1), ANTHROPIC_API_KEY (uses anthropic:claude-sonnet-4-5)';
    const rows = wrapOwnText(item, 79).split('\n');
    expect(rows[0]).toBe('  4. an API key in the environment: OPENAI_API_KEY (uses openai:gpt-4.1),');
    expect(rows.slice(1).every((row) => row.startsWith('     ') && !row.startsWith('      '))).toBe(true);
    const plain = `Unknown command /bogus. ${'Type a goal and press Enter; the next goal continues the same session. '.repeat(2)}`;
    const wrapped = wrapOwnText(plain.trim(), 79).split('\n');
    expect(wrapped.every((row) => row.length <= 79)).toBe(true);
    expect(wrapped.join(' ')).toBe(plain.trim());
  });

  it('keeps colours and measures without them', () => {
    const styled = `\u001b[33mUnknown command /bogus.\u001b[39m ${'word '.repeat(30).trim()}`;
    const rows = wrapOwnText(styled, 40).split('\n');
    expect(rows.every((row) => visibleLength(row) <= 40)).toBe(true);
    expect(rows[0]?.startsWith('\u001b[33mUnknown command /bogus.\u001b[39m word')).toBe(true);
  });

  it('leaves text for a pipe or a file as it is', () => {
    expect(ownText(HELP_ROW, { isTTY: false, columns: 80 })).toBe(HELP_ROW);
    expect(ownText(HELP_ROW, { isTTY: true, columns: 80 }).split('\n')).toHaveLength(3);
  });
});
