import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LineProgress,
  PROGRESS_INTERVAL_MS,
  PROGRESS_MAX_LINES,
} from '../../src/tools/process/line-progress.js';

describe('LineProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports whole lines once per interval, not per chunk', () => {
    const reports: string[] = [];
    const progress = new LineProgress((message) => reports.push(message));
    progress.push('first li');
    expect(reports).toEqual([]);
    progress.push('ne\nsecond\nthi');
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS - 1);
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual(['first line\nsecond']);
    progress.flush();
    expect(reports).toEqual(['first line\nsecond', 'thi']);
  });

  it('sends only the latest lines of a burst and counts the rest', () => {
    const reports: string[] = [];
    const progress = new LineProgress((message) => reports.push(message));
    progress.push(Array.from({ length: 100 }, (_, index) => `l${index + 1}\n`).join(''));
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(reports).toHaveLength(1);
    const lines = reports[0]?.split('\n') ?? [];
    expect(lines[0]).toBe(`… ${100 - PROGRESS_MAX_LINES} more lines …`);
    expect(lines.at(-1)).toBe('l100');
    expect(lines).toHaveLength(PROGRESS_MAX_LINES + 1);
  });

  it('shows what a carriage-return progress bar drew last', () => {
    const reports: string[] = [];
    const progress = new LineProgress((message) => reports.push(message));
    progress.push('10%\r50%\r100%\r\n');
    progress.flush();
    expect(reports).toEqual(['100%']);
  });
});
