import type { WorkOutcome } from '../../runtime/index.js';
import { EXIT } from '../exit-codes.js';
import { CliRuntime } from '../interactive/cli-runtime.js';
import { askToTrustDatabase } from '../interactive/trust-prompt.js';
import type { WorkCliOptions } from '../options.js';
import { outputClosed } from '../render/output-closed.js';
import { repoOrQueue } from './repo-option.js';

/** `taskweave work`: drains the queue through the runtime and says how it went. */
export async function workQueue(options: WorkCliOptions): Promise<number> {
  if (options.repo !== undefined && options.repo.length > 0) return workRepositoryQueues(options);
  const cli = await CliRuntime.open(options);
  try {
    await askToTrustDatabase(cli.runtime, cli.interactive && !!process.stdout.isTTY);
    if (options.watch)
      cli.say(
        `Watching queue "${options.queue}" (Ctrl-C ends)\n  store      ${cli.runtime.databasePath}\n  workspace  ${cli.runtime.workspace.root}`,
      );
    const outcome = await cli.runtime.work({ queue: options.queue, watch: options.watch });
    return reportWork(cli, outcome, options);
  } finally {
    await cli.close();
  }
}

/** What a worker says when it ends, and its exit code. */
function reportWork(cli: CliRuntime, outcome: WorkOutcome, options: WorkCliOptions): number {
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
}

/**
 * `work --repo <remote>` (one or more): each repository's queue of the shared store, worked in
 * this machine's own clone of it (made or fetched now), every plan in worktrees whose branches
 * go through the clone's remote; one task at a time in this process, the queues in turn.
 */
async function workRepositoryQueues(options: WorkCliOptions): Promise<number> {
  const { prepareRepository, shownRemote } = await import('../../runtime/repositories.js');
  const { workRepositories } = await import('../../runtime/repo-work.js');
  hideRemoteCredentials(options.repo ?? [], shownRemote);
  const repositories: { cli: CliRuntime; queue: string }[] = [];
  try {
    for (const repo of options.repo ?? []) {
      const queue = await repoOrQueue({ repo, queue: options.queue, store: options.store });
      const place = await prepareRepository({ remote: repo, clones: options.clones });
      const cli = await CliRuntime.open({
        ...options,
        cwd: place.folder,
        isolation: 'worktree',
        remote: place.remote,
      });
      // Ctrl-C is said once (by the first repository's); the others' runs stop with it, silently.
      if (repositories.length > 0) cli.setInterruptHandler(() => cli.runtime.stop());
      repositories.push({ cli, queue });
    }
    const [first] = repositories;
    if (options.watch && first)
      first.cli.say(watchingRepositoriesText(repositories, options.repo ?? [], shownRemote));
    const outcome = await workRepositories(
      repositories.map(({ cli, queue }) => ({ runtime: cli.runtime, queue })),
      { watch: options.watch },
    );
    return first ? reportWork(first.cli, outcome, options) : EXIT.completed;
  } finally {
    for (const { cli } of repositories) await cli.close();
  }
}

/** The start line of `work --watch --repo …`: the store (its password hidden), each repository and its clone. */
function watchingRepositoriesText(
  repositories: readonly { cli: CliRuntime; queue: string }[],
  remotes: readonly string[],
  shown: (remote: string) => string,
): string {
  const store = repositories[0]?.cli.runtime.databasePath ?? '';
  const each = repositories.map(
    ({ cli }, index) =>
      `  repository ${shown(remotes[index] ?? '')}\n    clone    ${cli.runtime.workspace.root}`,
  );
  const count =
    repositories.length === 1
      ? 'the queue of one repository'
      : `the queues of ${repositories.length} repositories`;
  return `Watching ${count} (Ctrl-C ends)\n  store      ${store}\n${each.join('\n')}`;
}

/**
 * A remote's token given on the command line (`--repo https://user:token@host/…`) would stay in
 * this process's command line, which `ps` shows every local user and any command a task runs:
 * the process's title is rewritten without it (Linux overwrites argv in place). git gets the
 * credentials through its environment alone (see remoteCredentialsEnv).
 */
function hideRemoteCredentials(remotes: readonly string[], shown: (remote: string) => string): void {
  const hidden = process.argv.map((argument) =>
    remotes.reduce((text, remote) => text.replaceAll(remote, shown(remote)), argument),
  );
  if (hidden.some((argument, index) => argument !== process.argv[index])) process.title = hidden.join(' ');
}
