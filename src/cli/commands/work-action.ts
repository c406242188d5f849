import { EXIT } from '../exit-codes.js';
import { CliRuntime } from '../interactive/cli-runtime.js';
import { askToTrustDatabase } from '../interactive/trust-prompt.js';
import type { WorkCliOptions } from '../options.js';
import { outputClosed } from '../render/output-closed.js';
import { repoOrQueue } from './repo-option.js';

/** `taskweave work`: drains the queue through the runtime and says how it went. */
export async function workQueue(given: WorkCliOptions): Promise<number> {
  const options = given.repo === undefined ? given : await inClone(given);
  const cli = await CliRuntime.open(options);
  try {
    await askToTrustDatabase(cli.runtime, cli.interactive && !!process.stdout.isTTY);
    const outcome = await cli.runtime.work({ queue: options.queue, watch: options.watch });
    if (outcome.kind === 'busy') {
      cli.say(`Another worker is running "${outcome.running.title}"; this queue runs one task at a time.`);
      return EXIT.completed;
    }
    if (outcome.kind === 'empty') {
      if (!options.watch) cli.say('The queue is empty. Add work with: taskweave tasks add "<what to do>"');
      return EXIT.completed;
    }
    const { summary } = outcome;
    const stopped = outputClosed() ? 'stopped because the output was closed' : 'stopped by Ctrl-C';
    cli.say(
      `\nqueue: ${summary.completed} completed, ${summary.failed} failed${summary.stopped ? `, ${stopped} (the current task went back to the queue)` : ''}`,
    );
    if (summary.stopped) return EXIT.stopped;
    return summary.failed > 0 ? EXIT.failed : EXIT.completed;
  } finally {
    await cli.close();
  }
}

/**
 * `work --repo`: the repository's queue of the shared store, worked in this machine's own clone
 * (made or fetched now), every plan in worktrees whose branches go through the clone's remote.
 */
async function inClone(options: WorkCliOptions): Promise<WorkCliOptions> {
  const queue = await repoOrQueue(options);
  const { prepareRepository } = await import('../../runtime/repo-queue.js');
  const place = await prepareRepository({ remote: options.repo ?? '', clones: options.clones });
  return { ...options, cwd: place.folder, queue, isolation: 'worktree', remote: place.remote };
}
