#!/usr/bin/env node
// The CLI as bundles (scripts/bundle.mjs): `--help` and `--version` are answered by a small module
// without loading the CLI, and so are `tasks list` and `sessions list` when they can be (another
// small module); everything else loads the CLI's one-file bundle through V8's code cache.
import { launch } from '../dist/bundle/quick.js';

await launch(process.argv, new URL('../dist/bundle/', import.meta.url));
