import { describe, expect, it } from 'vitest';
import { HeadTailCapture } from '../../src/tools/process/head-tail-capture.js';
import { truncateMiddle } from '../../src/tools/text/truncate.js';

/** Splits a text into pieces of varying sizes, as a pipe delivers them. */
function chunks(text: string, sizes: number[]): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (let index = 0; at < text.length; index++) {
    const size = sizes[index % sizes.length] ?? 1;
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

describe('HeadTailCapture', () => {
  const text = Array.from({ length: 20_000 }, (_, index) => `line ${index}`).join('\n');

  it('keeps a short stream whole', () => {
    const capture = new HeadTailCapture(1_000);
    for (const piece of chunks('short\noutput\n', [3])) capture.push(piece);
    expect(capture.text()).toBe('short\noutput\n');
  });

  it('gives what truncateMiddle gives for the whole stream, however it is chunked', () => {
    for (const maxChars of [100, 1_000, 12_000]) {
      for (const sizes of [[1], [7, 300, 4_096], [65_536]]) {
        const capture = new HeadTailCapture(maxChars);
        for (const piece of chunks(text, sizes)) capture.push(piece);
        expect(capture.text()).toBe(truncateMiddle(text, maxChars));
      }
    }
  });

  it('can be read more than once as the stream grows', () => {
    const capture = new HeadTailCapture(200);
    capture.push(text.slice(0, 5_000));
    expect(capture.text()).toBe(truncateMiddle(text.slice(0, 5_000), 200));
    capture.push(text.slice(5_000));
    expect(capture.text()).toBe(truncateMiddle(text, 200));
  });
});
