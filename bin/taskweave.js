#!/usr/bin/env node
// The CLI as one bundle (scripts/bundle.mjs): a command opens a few files, not hundreds.
// `--help` and `--version` are answered by a small module without loading the CLI, and so are
// `tasks list` and `sessions list` when they can be (another small module; else the CLI runs).
import { quickAnswer } from '../dist/bundle/quick.js';

const listing = process.argv[2] === 'tasks' || process.argv[2] === 'sessions';
if (
  !quickAnswer(process.argv, new URL('../dist/bundle/help-layout.json', import.meta.url)) &&
  !(listing && (await (await import('../dist/bundle/listing.js')).quickListing(process.argv)))
) {
  const { main } = await import('../dist/bundle/main.js');
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.stack : String(error));
      process.exitCode = 1;
    },
  );
}
