#!/usr/bin/env node
// The CLI as one bundle (scripts/bundle.mjs): a command opens a few files, not hundreds.
// `--help` and `--version` are answered by a small module without loading the CLI.
import { quickAnswer } from '../dist/bundle/quick.js';

if (!quickAnswer(process.argv, new URL('../dist/bundle/help-layout.json', import.meta.url))) {
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
