import type { Command } from 'commander';
import { DEFAULT_QUEUE } from '../store/schema.js';
import { type AgentCliOptions, AgentRuntime, addAgentOptions } from './agent-runtime.js';
import { EXIT } from './exit-codes.js';
import { drainQueue, LEASE_MS, newWorkerId } from './queue-worker.js';

interface WorkCliOptions extends AgentCliOptions {
  queue: string;
}

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
    if (released.length > 0) {
      runtime.say(
        `${released.length} task(s) whose worker stopped without finishing went back to the queue.`,
      );
    }
    const first = tasks.claimNext({ queue: options.queue, owner, leaseMs: LEASE_MS });
    if (!first) {
      const running = tasks.listActive(options.queue).find((task) => task.status === 'in_progress');
      runtime.say(
        running
          ? `Another worker is running "${running.title}"; this queue runs one task at a time.`
          : 'The queue is empty. Add work with: taskweave tasks add "<what to do>"',
      );
      return EXIT.completed;
    }
    const summary = await drainQueue(runtime, {
      owner,
      queue: options.queue,
      first,
      announce: (task, index) => {
        const waiting = tasks
          .listActive(options.queue)
          .filter((candidate) => candidate.status === 'pending').length;
        runtime.say(`\n▶ task ${index} of ${index + waiting}: ${task.title}`);
      },
    });
    runtime.say(
      `\nqueue: ${summary.completed} completed, ${summary.failed} failed${summary.stopped ? ', stopped by Ctrl-C (the current task went back to the queue)' : ''}`,
    );
    if (summary.stopped) return EXIT.stopped;
    return summary.failed > 0 ? EXIT.failed : EXIT.completed;
  } finally {
    runtime.close();
  }
}
