import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { passed, runChaos, summaryLine } from '../../bench/chaos.js';

/** The short form of bench/chaos (the full run is 1,000 episodes; see the README). */
const EPISODES = 50;

describe('the chaos suite, short form', () => {
  it(`${EPISODES} episodes of a misbehaving model: 0 crashes, 0 hangs, every episode in a named status with a reason`, async () => {
    const summary = await runChaos({
      episodes: EPISODES,
      seed: 11,
      concurrency: 4,
      watchdogMs: 30_000,
      // tmpfs when there is one: the episodes' SQLite commits need not wait for a disk here.
      dir: existsSync('/dev/shm') ? '/dev/shm' : undefined,
    });
    const line = summaryLine(summary, 11);
    expect(summary.episodes).toHaveLength(EPISODES);
    expect(summary.crashes, line).toBe(0);
    expect(summary.hangs, line).toBe(0);
    expect(summary.unhandledRejections, line).toBe(0);
    expect(summary.unexplained, line).toBe(0);
    expect(passed(summary)).toBe(true);
    // The model did misbehave: more than the good replies were exercised.
    expect([...summary.behaviours.keys()].length).toBeGreaterThan(8);
  }, 90_000);
});
