#!/usr/bin/env node
// The CLI as one bundle (scripts/bundle.mjs): a command opens a few files, not hundreds.
import { main } from '../dist/bundle/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exitCode = 1;
  },
);
