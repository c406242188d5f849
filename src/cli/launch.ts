/**
 * What bin/taskweave.js runs: the quick answers first (`--help`, `--version`, and `tasks list` /
 * `sessions list` when they can be answered without the CLI), else the whole CLI from its bundle
 * (dist/bundle/main.cjs), loaded by Node's own `require`. This module is bundled on its own
 * (dist/bundle/quick.cjs) so that a quick answer loads nothing more.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { quickAnswer } from './quick-answer.js';

/** What the CLI's bundle exports (src/cli/main.ts). */
interface CliBundle {
  main(argv: readonly string[]): Promise<number>;
}

/** Runs the command in argv (as process.argv) with the build in `bundleFolder` (dist/bundle/). */
export async function launch(argv: readonly string[], bundleFolder: URL): Promise<void> {
  if (quickAnswer(argv, new URL('help-layout.json', bundleFolder))) return;
  if (argv[2] === 'tasks' || argv[2] === 'sessions') {
    const listing = (await import(new URL('listing.js', bundleFolder).href)) as {
      quickListing(argv: readonly string[]): Promise<boolean>;
    };
    if (await listing.quickListing(argv)) return;
  }
  const { main } = createRequire(fileURLToPath(bundleFolder))('./main.cjs') as CliBundle;
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : String(error));
      process.exitCode = 1;
    },
  );
}
