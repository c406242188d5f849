import type { Store } from '../../store/ports.js';
import type { Journal } from '../state/journal.js';
import { RunRecords } from '../state/run-records.js';

/**
 * Records a goal that was refused before its run could start (a queued model this process does
 * not trust): a run of the session that failed at step 0 with the reason, announced like any
 * run's end, so that whoever follows the session (the process that queued it, `sessions show`,
 * the web UI) sees why it did not run.
 */
export async function recordRefusedRun(options: {
  store: Store;
  journal: Journal;
  goal: string;
  taskId?: string;
  reason: string;
}): Promise<void> {
  const records = new RunRecords(options.store, options.journal);
  const runId = await records.startRun(options.goal, 'simple', options.taskId);
  await records.finishRun(runId, {
    status: 'failed',
    reason: options.reason,
    steps: 0,
    inputTokens: 0,
    outputTokens: 0,
    cost: null,
    mode: 'simple',
  });
}
