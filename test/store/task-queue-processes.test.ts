import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { startFixture } from './run-fixture.js';
import { tempFolder, track } from './temp-database.js';

const TASKS = 200;
const QUEUE = 'shared';

interface ClaimLine {
  claimed: string;
  inProgress: string[];
  attempts: number;
}

describe('TaskStore: two processes draining one queue', () => {
  it.each([
    ['claimNext then complete', 'claim'],
    ['completeAndClaimNext hand-offs', 'handoff'],
  ])('hands every task out exactly once and never has two in progress at once (%s)', async (_, mode) => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    const db = track(openDatabase({ path: file }));
    const store = new TaskStore(db);
    const ids: string[] = [];
    for (let index = 0; index < TASKS; index++) {
      // Every fifth task waits for the one before it, so dependencies are crossed between processes.
      const dependsOn = index % 5 === 4 ? [ids[index - 1]!] : [];
      ids.push(store.add({ title: `task ${index}`, queue: QUEUE, dependsOn }).id);
    }
    store.add({ title: 'another queue', queue: 'untouched' });

    const workers = [startFixture([mode, file, 'alpha', QUEUE]), startFixture([mode, file, 'beta', QUEUE])];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.child.stdin.end('go\n');
    const results = await Promise.all(workers.map((worker) => worker.result));

    let emptyHandOffs = 0;
    const claimsByWorker = results.map((result) => {
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).toBe('ready');
      const summary: { claims: number; emptyHandOffs: number } = JSON.parse(lines.at(-1)!);
      emptyHandOffs += summary.emptyHandOffs;
      const claims: ClaimLine[] = lines.slice(1, -1).map((line) => JSON.parse(line));
      expect(claims).toHaveLength(summary.claims);
      return claims;
    });
    const all = claimsByWorker.flat();
    expect(all.map((claim) => claim.claimed).sort()).toEqual([...ids].sort());
    for (const claim of all) {
      expect(claim.inProgress).toEqual([claim.claimed]);
      expect(claim.attempts).toBe(1);
    }
    // The worker holding a task is the only one with a task of the queue, so a hand-off finds the
    // next task unless none is left: only the last one may come back empty. (That the two changes
    // are one commit is shown directly in task-store.test.ts; here the window is too short to hit.)
    expect(emptyHandOffs).toBeLessThanOrEqual(1);
    // Both processes took part: the test exercised the contention it is about.
    for (const claims of claimsByWorker) expect(claims.length).toBeGreaterThan(0);

    const finished = store.listAll({ queue: QUEUE });
    expect(finished.every((task) => task.status === 'completed' && task.leaseOwner === null)).toBe(true);
    expect(new Set(finished.map((task) => task.resultSummary))).toEqual(
      new Set(['done by alpha', 'done by beta']),
    );
    expect(store.listActive('untouched')).toHaveLength(1);
  });
});
