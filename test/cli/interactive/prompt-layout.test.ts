import { describe, expect, it } from 'vitest';
import { layoutPrompt } from '../../../src/cli/interactive/prompt-layout.js';

describe('layoutPrompt', () => {
  it('puts further lines under the first line’s text and the cursor where the text wraps', () => {
    const layout = layoutPrompt({
      prompt: 'ask › ',
      text: `${'a'.repeat(80)}\nsecond`,
      cursor: 80,
      columns: 80,
    });
    expect(layout.written).toBe(`ask › ${'a'.repeat(80)}\r\n      second`);
    // The first line takes two rows (86 columns); the cursor sits after its last `a`, on row 1.
    expect([layout.cursorRow, layout.cursorColumn]).toEqual([1, 6]);
    expect([layout.endRow, layout.endColumn]).toEqual([2, 12]);
  });

  it('a line that fills its row exactly ends on the next row, where the cursor goes', () => {
    const layout = layoutPrompt({ prompt: '› ', text: 'b'.repeat(78), cursor: 78, columns: 80 });
    expect([layout.endRow, layout.endColumn]).toEqual([1, 0]);
    expect([layout.cursorRow, layout.cursorColumn]).toEqual([1, 0]);
  });

  it('counts wide characters as two columns', () => {
    const layout = layoutPrompt({ prompt: '› ', text: '日本語', cursor: 2, columns: 80 });
    expect([layout.cursorRow, layout.cursorColumn]).toEqual([0, 6]);
  });
});
