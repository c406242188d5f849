import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { visibleLength, wrapStyled } from '../../../src/cli/render/styled-text.js';

describe('visibleLength', () => {
  it('measures as string-width does, plain ASCII without it', () => {
    const texts = [
      '',
      'plain words, (brackets) & ~symbols~',
      '\u001b[31mred\u001b[39m and \u001b[1;2mbold dim\u001b[m',
      'tab\there',
      'line\nbreak',
      'héllo wörld',
      '日本語のテキスト',
      'emoji 👍🏽 and 👨‍👩‍👧',
      'combining e\u0301',
      '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007',
      '\u001b[31m日本\u001b[0m',
      'zero\u200bwidth',
    ];
    for (const text of texts) expect(visibleLength(text), JSON.stringify(text)).toBe(stringWidth(text));
  });

  it('wraps plain and wide text between words', () => {
    expect(wrapStyled('one two three four', 9)).toBe('one two\nthree\nfour');
    expect(wrapStyled('日本 語の テキ スト', 5)).toBe('日本\n語の\nテキ\nスト');
  });
});
