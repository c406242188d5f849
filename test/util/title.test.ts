import { describe, expect, it } from 'vitest';
import { MAX_TITLE_CHARS, titleOf } from '../../src/util/title.js';

describe('titleOf', () => {
  it('keeps a short first line whole', () => {
    expect(titleOf('\n  fix the build  \nand more')).toBe('fix the build');
  });

  it('cuts a long line between words and marks the cut', () => {
    const goal =
      'build the two parts of the application: the command-line interface first, and then the documentation website';
    const title = titleOf(goal);
    expect(title).toBe('build the two parts of the application: the command-line interface first, and…');
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
  });

  it('cuts one very long word where the room ends', () => {
    const title = titleOf(`fetch https://example.com/${'a'.repeat(200)}`);
    expect(title.length).toBe(MAX_TITLE_CHARS);
    expect(title.endsWith('…')).toBe(true);
  });
});
