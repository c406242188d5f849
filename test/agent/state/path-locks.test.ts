import { describe, expect, it } from 'vitest';
import { PathLocks } from '../../../src/agent/state/path-locks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PathLocks', () => {
  it('runs work on the same path one at a time, in order, and different paths together', async () => {
    const locks = new PathLocks();
    const log: string[] = [];
    const job = (key: string, name: string) =>
      locks.withLock(key, async () => {
        log.push(`${name} start`);
        await sleep(30);
        log.push(`${name} end`);
        return name;
      });
    const results = await Promise.all([
      job('/w/a.txt', 'first'),
      job('/w/a.txt', 'second'),
      job('/w/b.txt', 'other'),
    ]);
    expect(results).toEqual(['first', 'second', 'other']);
    expect(log.indexOf('second start')).toBeGreaterThan(log.indexOf('first end'));
    expect(log.indexOf('other start')).toBeLessThan(log.indexOf('first end'));
  });

  it('releases the lock when the work throws', async () => {
    const locks = new PathLocks();
    await expect(
      locks.withLock('/w/a.txt', async () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    await expect(locks.withLock('/w/a.txt', async () => 'next')).resolves.toBe('next');
  });
});
