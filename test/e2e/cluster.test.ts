import { describe, expect, it } from 'vitest';
import { clusterSchema, runCluster } from '../../bench/cluster-harness.js';

/*
 * Many machines, one queue: three workers (`taskweave work --watch --store <pg> --repo …`), each
 * a process with a HOME and clones folder of its own, work the goals of three repositories (one
 * bare git remote each) through one PostgreSQL server, while workers are killed with SIGKILL
 * and started again. Every goal is a 3-task plan answered by the script model after 200 ms.
 * Nothing may be lost or done twice: every goal completed, each plan task completed once, each
 * goal branch on its remote with exactly one merge per task and exactly its tasks' files.
 *
 * The issue's size (60 goals, 20 kills) is the default: about 80 s of cluster (110 s with the
 * submissions) on this 2-core machine. TASKWEAVE_CLUSTER_SMALL=1 runs a smaller cluster of the
 * same shape (15 goals, 6 kills, about 30 s) for a quick check.
 */

const server = process.env.TASKWEAVE_TEST_POSTGRES;
const FULL = process.env.TASKWEAVE_CLUSTER_SMALL !== '1';
const GOALS = FULL ? 60 : 15;
const KILLS = FULL ? 20 : 6;

describe('a cluster of three workers on three repositories', { timeout: FULL ? 900_000 : 300_000 }, () => {
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set (.ci/run sets it)', () => {});
    return;
  }
  it(`loses no goal, does no task twice and loses or doubles no merge through ${KILLS} kill -9 of workers`, async () => {
    const schema = await clusterSchema(server);
    try {
      const run = await runCluster({
        store: schema.url,
        goals: GOALS,
        repositories: 3,
        workers: 3,
        latencyMs: 200,
        kills: KILLS,
        killEveryMs: 1500,
        leaseMs: 4000,
        timeoutMs: FULL ? 600_000 : 240_000,
      });
      const { audit } = run;
      const said = `${JSON.stringify({ ...audit, wallMs: run.wallMs, kills: run.kills }, null, 2)}\n${run.outputs.join('\n')}`;
      process.stdout.write(
        `cluster: ${GOALS} goals, ${run.kills} kills, ${Math.round(run.wallMs / 1000)} s, ${run.goalsPerMinute.toFixed(1)} goals/min, ${audit.retried} goals continued by another start\n`,
      );
      expect(run.timedOut, said).toBe(false);
      expect(run.kills, said).toBe(KILLS);
      expect(audit.lostGoals, said).toEqual([]);
      expect(audit.completedGoals).toBe(GOALS);
      expect(audit.planTasksNotCompleted, said).toEqual([]);
      expect(audit.completedTwice, said).toEqual([]);
      expect(audit.mergeCountWrong, said).toEqual([]);
      expect(audit.contentWrong, said).toEqual([]);
      // The kills did land on work: some goals were taken over mid-way.
      expect(audit.retried, said).toBeGreaterThan(0);
    } finally {
      await schema.drop();
    }
  });
});
