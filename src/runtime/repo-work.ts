import type { Runtime, WorkOutcome } from './runtime.js';
import type { DrainSummary } from './worker/drain-queue.js';
import { watchQueue } from './worker/queue-wake.js';

/** How often a worker of several repositories looks again when none woke it (expired leases, a stop). */
export const REPOSITORIES_POLL_MS = 500;

/** One repository a worker works: the runtime opened in its clone, and its queue. */
export interface RepositoryWork {
  runtime: Runtime;
  queue: string;
}

/**
 * Works the queues of several repositories (`work --repo A --repo B`), one task at a time in
 * this process: one goal of each queue in turn (the serial rule holds per queue; a queue another
 * worker runs is skipped), the first queue of the next round moving on so that none starves.
 * With `watch`, a round that found nothing waits for a task of any of the queues (the store's
 * signals, a poll as fallback) until stopped; without, it ends then.
 */
export async function workRepositories(
  repositories: readonly RepositoryWork[],
  options: { watch?: boolean; pollMs?: number } = {},
): Promise<WorkOutcome> {
  const summary: DrainSummary = { completed: 0, failed: 0, stopped: false };
  const stopRequested = () => repositories.some(({ runtime }) => runtime.stopRequested);
  const wakes = options.watch
    ? await Promise.all(repositories.map(({ runtime, queue }) => watchQueue(runtime.store, queue)))
    : [];
  let ranAny = false;
  let busy: Extract<WorkOutcome, { kind: 'busy' }> | undefined;
  let first = 0;
  let announced = false;
  try {
    while (!stopRequested()) {
      let worked = false;
      for (let index = 0; index < repositories.length && !stopRequested(); index += 1) {
        const repository = repositories[(first + index) % repositories.length];
        if (!repository) continue;
        // One goal, then the next repository's: a worker does not hold on to one queue while
        // another's goals wait (each queue runs one goal at a time, whoever runs it).
        const outcome = await repository.runtime.work({ queue: repository.queue, maxTasks: 1 });
        if (outcome.kind === 'busy') busy = outcome;
        if (outcome.kind !== 'drained') continue;
        worked = true;
        ranAny = true;
        announced = false;
        summary.completed += outcome.summary.completed;
        summary.failed += outcome.summary.failed;
        if (outcome.summary.stopped) {
          summary.stopped = true;
          return { kind: 'drained', summary };
        }
      }
      first = (first + 1) % repositories.length;
      if (worked) continue;
      if (!options.watch) break;
      if (!announced) {
        repositories[0]?.runtime.notice(
          `The queues of ${repositories.length === 1 ? 'the repository are' : `${repositories.length} repositories are`} empty; waiting for tasks (Ctrl-C ends).`,
        );
        announced = true;
      }
      await Promise.race(wakes.map((wake) => wake.wait(options.pollMs ?? REPOSITORIES_POLL_MS)));
    }
  } finally {
    await Promise.all(wakes.map((wake) => wake.close()));
  }
  if (ranAny) return { kind: 'drained', summary };
  return busy ?? { kind: 'empty' };
}
