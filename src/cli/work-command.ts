import type { Command } from 'commander';
import { DEFAULT_QUEUE, type Task } from '../store/schema.js';
import { type AgentCliOptions, AgentRuntime, addAgentOptions } from './agent-runtime.js';
import { EXIT } from './exit-codes.js';
import { drainQueue, LEASE_MS, releaseDeadWorkers } from './queue-worker.js';
import { newWorkerId } from './worker-identity.js';

interface WorkCliOptions extends AgentCliOptions {
  queue: string;
  watch?: boolean;
}

/** How often `work --watch` looks for new tasks while the queue is empty. */
export const WATCH_POLL_MS = 500;

/** Adds `taskweave work`: drains the task queue, one task after another. */
export function addWorkCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('work')
      .description(
        'work the task queue: run its pending tasks one after another with the agent, until it is empty',
      ),
  )
    .option('--queue <name>', 'the queue to work', DEFAULT_QUEUE)
    .option(
      '--watch',
      'keep running when the queue is empty: a task added later starts at once (Ctrl-C ends)',
    )
    .action(async (options: WorkCliOptions) => {
      setExitCode(await workFromCli(options));
    });
}

async function workFromCli(options: WorkCliOptions): Promise<number> {
  const runtime = await AgentRuntime.open(options);
  try {
    const { tasks } = runtime.store;
    const owner = newWorkerId();
    const released = tasks.releaseExpiredLeases();
    releaseDeadWorkers(runtime, options.queue);
    if (released.length > 0) {
      runtime.say(
        `${released.length} task(s) whose worker stopped without finishing went back to the queue.`,
      );
    }
    let first = tasks.claimNext({ queue: options.queue, owner, leaseMs: LEASE_MS });
    if (!first && options.watch) {
      runtime.say('The queue is empty; waiting for tasks (Ctrl-C ends).');
      first = await waitForTask(runtime, options.queue, owner);
      if (!first) return EXIT.completed;
    }
    if (!first) {
      const running = tasks.listActive(options.queue).find((task) => task.status === 'in_progress');
      runtime.say(
        running
          ? `Another worker is running "${running.title}"; this queue runs one task at a time.`
          : 'The queue is empty. Add work with: taskweave tasks add "<what to do>"',
      );
      return EXIT.completed;
    }
    const announce = (task: { title: string }, index: number) => {
      const waiting = tasks
        .listActive(options.queue)
        .filter((candidate) => candidate.status === 'pending').length;
      runtime.say(`\n▶ task ${index} of ${index + waiting}: ${task.title}`);
    };
    const summary = await drainQueue(runtime, { owner, queue: options.queue, first, announce });
    while (options.watch && !summary.stopped) {
      runtime.say('The queue is empty; waiting for tasks (Ctrl-C ends).');
      const next = await waitForTask(runtime, options.queue, owner);
      if (!next) break;
      const more = await drainQueue(runtime, { owner, queue: options.queue, first: next, announce });
      summary.completed += more.completed;
      summary.failed += more.failed;
      summary.stopped = more.stopped;
    }
    runtime.say(
      `\nqueue: ${summary.completed} completed, ${summary.failed} failed${summary.stopped ? ', stopped by Ctrl-C (the current task went back to the queue)' : ''}`,
    );
    if (summary.stopped) return EXIT.stopped;
    return summary.failed > 0 ? EXIT.failed : EXIT.completed;
  } finally {
    runtime.close();
  }
}

/** Waits until a task can be claimed from the queue; undefined when the user pressed Ctrl-C. */
async function waitForTask(runtime: AgentRuntime, queue: string, owner: string): Promise<Task | undefined> {
  while (!runtime.stopRequested) {
    releaseDeadWorkers(runtime, queue);
    const task = runtime.store.tasks.claimNext({ queue, owner, leaseMs: LEASE_MS });
    if (task) return task;
    await new Promise((resolve) => setTimeout(resolve, WATCH_POLL_MS));
  }
  return undefined;
}
