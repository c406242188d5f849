import type { Command } from 'commander';
import { DEFAULT_QUEUE, type Task } from '../store/schema.js';
import { type AgentCliOptions, AgentRuntime, addAgentOptions } from './agent-runtime.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { resolveIdPrefix, SESSION_IDS } from './id-prefix.js';
import {
  claimIfIdle,
  drainQueue,
  LEASE_MS,
  outcomeText,
  type QueueTaskResult,
  releaseDeadWorkers,
  runQueueTask,
} from './queue-worker.js';
import type { OpenedStore } from './store-options.js';
import { UsageError } from './usage-error.js';
import { newWorkerId } from './worker-identity.js';

/** Options of `taskweave run`, as commander parses them. */
export interface RunCliOptions extends AgentCliOptions {
  resume?: string;
  interrupt?: boolean;
}

const MAX_TITLE_CHARS = 80;

/** Adds `taskweave run` to the program. */
export function addRunCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('run')
      .description('work a goal through with tools until it is done, showing each step')
      .argument('<goal...>', 'what taskweave should do, in plain words'),
  )
    .option('--resume <session>', 'continue a session with its history: its id, a unique prefix, or "last"')
    .option(
      '--interrupt',
      'stop the task running in this workspace (at its next step boundary) and run this goal next',
    )
    .action(async (goalWords: string[], options: RunCliOptions) => {
      setExitCode(await runFromCli(goalWords.join(' ').trim(), options));
    });
}

async function runFromCli(goal: string, options: RunCliOptions): Promise<number> {
  if (goal === '') throw new UsageError('The goal is empty: say what taskweave should do.');
  const runtime = await AgentRuntime.open(options);
  try {
    const { sessions, tasks } = runtime.store;
    const title = goal.split('\n')[0]!.slice(0, MAX_TITLE_CHARS);
    const sessionId = options.resume
      ? resolveSession(runtime.store, options.resume)
      : sessions.createSession({ title, goal, workspace: runtime.workspace.root, model: runtime.model.id })
          .id;
    // Every goal goes through the workspace's queue: one task runs at a time, and a request
    // made while another runs waits its turn instead of being lost.
    const task = tasks.add({ title, description: goal, sessionId, queue: DEFAULT_QUEUE });
    const owner = newWorkerId();
    releaseDeadWorkers(runtime, task.queue);
    if (options.interrupt) interruptRunningTask(runtime, task);
    if (!claimIfIdle(runtime, task, owner)) return reportQueued(runtime, task);
    const result = await runQueueTask(runtime, task, owner);
    if (result.cancelled) return exitCodeFor('stopped');
    if (runtime.stopRequested) {
      // A goal the user stopped is not left in the queue for a later worker to pick up.
      tasks.cancel(task.id);
      return exitCodeFor(result.status);
    }
    // Work queued while this goal ran runs after it, here (older queued work is left to `taskweave work`).
    const next = endOwnTask(runtime, task, owner, result);
    if (next) {
      const summary = await drainQueue(runtime, {
        owner,
        queue: task.queue,
        first: next,
        announce: (queued) =>
          runtime.say(`\n▶ next in the queue (added while the last task ran): ${queued.title}`),
      });
      if (summary.stopped) return exitCodeFor('stopped');
    }
    return exitCodeFor(result.status);
  } finally {
    runtime.close();
  }
}

/**
 * Closes the goal's queue task and, when nothing older waits in the queue, takes the next task
 * (one queued while the goal ran) in the same transaction.
 */
function endOwnTask(
  runtime: AgentRuntime,
  task: Task,
  owner: string,
  result: QueueTaskResult,
): Task | undefined {
  const { tasks } = runtime.store;
  const text = outcomeText(result);
  const olderWaiting = tasks.listActive(task.queue).some((other) => other.sequence < task.sequence);
  if (olderWaiting) {
    if (result.status === 'completed') tasks.complete(task.id, text, { owner });
    else tasks.fail(task.id, text, { owner });
    return undefined;
  }
  const handOff = { id: task.id, owner, queue: task.queue, leaseMs: LEASE_MS };
  return result.status === 'completed'
    ? tasks.completeAndClaimNext({ ...handOff, resultSummary: text }).next
    : tasks.failAndClaimNext({ ...handOff, reason: text }).next;
}

/** `--interrupt`: the running task is cancelled; its worker stops it at the next step boundary. */
function interruptRunningTask(runtime: AgentRuntime, task: Task): void {
  const running = runtime.store.tasks.listActive(task.queue).find((other) => other.status === 'in_progress');
  if (!running) return;
  runtime.store.tasks.cancel(running.id);
  runtime.say(`Stopping the running task "${running.title}" at its next step boundary.`);
}

/** Another task is running: the goal waits in the queue, and the user is told where. */
function reportQueued(runtime: AgentRuntime, task: Task): number {
  const active = runtime.store.tasks.listActive(task.queue);
  const running = active.find((other) => other.status === 'in_progress');
  const position = active.findIndex((other) => other.id === task.id) + 1;
  runtime.say(
    `A task is running in this workspace${running ? ` ("${running.title}")` : ''}. Your request was queued as #${position} ` +
      `(task ${task.id}); the running worker takes it after the work ahead of it. ` +
      'Use --interrupt to stop the running task instead.',
  );
  return EXIT.completed;
}

/** The session `--resume` names: "last", a full id or a unique prefix. */
function resolveSession(store: OpenedStore, reference: string): string {
  if (reference === 'last') {
    const last = store.sessions.lastSession();
    if (!last) throw new UsageError('There is no session to resume in this workspace yet.');
    return last.id;
  }
  return resolveIdPrefix(store.db, SESSION_IDS, reference);
}
