import { describe, expect, it } from 'vitest';
import { formatDuration, relativeTime } from '../../../src/cli/render/relative-time.js';

const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);
const ago = (ms: number) => relativeTime(NOW - ms, NOW);

describe('relativeTime', () => {
  it('says how long ago in the largest whole unit', () => {
    expect(ago(3_000)).toBe('just now');
    expect(ago(42_000)).toBe('42 s ago');
    expect(ago(3 * 60_000 + 59_000)).toBe('3 min ago');
    expect(ago(5 * 3_600_000)).toBe('5 h ago');
    expect(ago(24 * 3_600_000)).toBe('1 day ago');
    expect(ago(29 * 24 * 3_600_000)).toBe('29 days ago');
  });

  it('gives the date from thirty days on, and "just now" for a clock a little ahead', () => {
    expect(ago(45 * 24 * 3_600_000)).toBe('2025-05-01');
    expect(ago(-5_000)).toBe('just now');
  });
});

describe('formatDuration', () => {
  it('uses ms, seconds with a decimal, then minutes and seconds', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
  });
});
