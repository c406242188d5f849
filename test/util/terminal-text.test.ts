import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal, stripControlSequences } from '../../src/util/terminal-text.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('stripControlSequences', () => {
  it('leaves ordinary text, newlines, tabs and non-ASCII text as they are', () => {
    const text = 'line one\n\tindented — ✓ 日本語 émoji 🎉\n';
    expect(stripControlSequences(text)).toBe(text);
  });

  it('removes an OSC 52 clipboard write, terminated by BEL or by ST', () => {
    expect(stripControlSequences(`before${ESC}]52;c;ZWNobyBoaQ==${BEL}after`)).toBe('beforeafter');
    expect(stripControlSequences(`before${ESC}]52;c;ZWNobyBoaQ==${ESC}\\after`)).toBe('beforeafter');
  });

  it('removes an unterminated OSC to the end (it would swallow what follows on the terminal too)', () => {
    expect(stripControlSequences(`ok${ESC}]0;new window title`)).toBe('ok');
  });

  it('removes erase-line, cursor movement, conceal and colours (CSI sequences)', () => {
    const text = `a${ESC}[2K${ESC}[1A${ESC}[8mhidden${ESC}[0m${ESC}[38;5;196mred${ESC}[m b`;
    expect(stripControlSequences(text)).toBe('ahiddenred b');
  });

  it('removes 8-bit CSI and OSC, DCS strings, two-byte escapes and a lone ESC', () => {
    expect(stripControlSequences('x\u009b2Ky')).toBe('xy');
    expect(stripControlSequences(`x\u009d52;c;aGk=${BEL}y`)).toBe('xy');
    expect(stripControlSequences(`x${ESC}Pq#0;2;0;0;0${ESC}\\y`)).toBe('xy');
    expect(stripControlSequences(`x${ESC}cy`)).toBe('xy');
    expect(stripControlSequences(`x${ESC}`)).toBe('x');
  });

  it('removes C0 controls other than newline and tab, DEL and C1 controls; a carriage return cannot overwrite', () => {
    expect(stripControlSequences('a\u0000b\u0007c\bd\u007fe\u0085f')).toBe('abcdef');
    expect(stripControlSequences('windows\r\nline')).toBe('windows\nline');
    expect(stripControlSequences('10%\r50%\r100%')).toBe('10%\n50%\n100%');
    expect(stripControlSequences('safe text\rrm -rf ~')).toBe('safe text\nrm -rf ~');
  });

  it('leaves nothing of any escape or control character in random input', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 500; round += 1) {
      const text = Array.from({ length: 40 }, () =>
        String.fromCharCode(
          random() < 0.5 ? Math.floor(random() * 0xa0) : 0x20 + Math.floor(random() * 0x5f),
        ),
      ).join('');
      expect(stripControlSequences(text)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });
});

describe('sanitizeForTerminal', () => {
  it('strips every string inside objects and arrays and keeps the other values', () => {
    const event = {
      type: 'tool_complete',
      seq: 3,
      ok: true,
      args: { path: `evil${ESC}[2K.txt`, lines: [`a${ESC}]52;c;eA==${BEL}`, 2] },
      none: null,
    };
    expect(sanitizeForTerminal(event)).toEqual({
      type: 'tool_complete',
      seq: 3,
      ok: true,
      args: { path: 'evil.txt', lines: ['a', 2] },
      none: null,
    });
    expect(event.args.path).toContain(ESC);
  });
});
