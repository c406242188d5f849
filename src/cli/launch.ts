/**
 * What bin/taskweave.js runs: the quick answers first (`--help`, `--version`, and `tasks list` /
 * `sessions list` when they can be answered without the CLI), else the whole CLI, loaded from its
 * bundle through V8's code cache (code-cache.ts). This module is bundled on its own
 * (dist/bundle/quick.cjs) so that a quick answer loads nothing more.
 */
import { readFileSync } from 'node:fs';
import { codeCacheFolder, loadCliBundle } from './code-cache.js';
import type { HelpLayout } from './help-layout.js';
import { quickAnswer } from './quick-answer.js';

// The loader itself, for its tests (test/cli/code-cache.test.ts load bundles in new processes).
export { loadCliBundle } from './code-cache.js';

/** Runs the command in argv (as process.argv) with the build in `bundleFolder` (dist/bundle/). */
export async function launch(argv: readonly string[], bundleFolder: URL): Promise<void> {
  const layoutUrl = new URL('help-layout.json', bundleFolder);
  if (quickAnswer(argv, layoutUrl)) return;
  if (argv[2] === 'tasks' || argv[2] === 'sessions') {
    const listing = (await import(new URL('listing.js', bundleFolder).href)) as {
      quickListing(argv: readonly string[]): Promise<boolean>;
    };
    if (await listing.quickListing(argv)) return;
  }
  const { bundle, finished, warmed } = loadCliBundle(
    new URL('main.cjs', bundleFolder),
    commandWord(argv, layoutUrl),
    codeCacheFolder(process.env),
  );
  bundle.main(argv, { warmed }).then(
    (code) => {
      process.exitCode = code;
      finished();
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : String(error));
      process.exitCode = 1;
      finished();
    },
  );
}

/**
 * The command argv runs, as the code cache's name: one of the program's command words (read from
 * the help's layout), or `other` (the default command with a goal, an option first, a typo).
 */
export function commandWord(argv: readonly string[], layoutUrl: URL): string {
  const word = argv[2];
  if (word === undefined || !/^[a-z][a-z-]*$/.test(word)) return 'other';
  try {
    const layout = JSON.parse(readFileSync(layoutUrl, 'utf8')) as HelpLayout;
    const commands = layout.sections.find((section) => section.title === 'Commands:')?.items ?? [];
    return commands.some(([usage]) => usage.split(/[ |]/)[0] === word) ? word : 'other';
  } catch {
    return 'other';
  }
}
