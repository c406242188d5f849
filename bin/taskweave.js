#!/usr/bin/env node
// The CLI as bundles (scripts/bundle.mjs): `--help` and `--version` are answered by a small module
// without loading the CLI, and so are `tasks list` and `sessions list` when they can be (another
// small module); everything else loads the CLI's bundle (dist/bundle/main.cjs).
// CommonJS (bin/package.json), like quick.cjs: a launch then starts no ES module loader.
const { enableCompileCache } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

// Node's own compile cache where the platform has it (Node >= 22.1): a later launch reads the
// bundles' compiled code instead of compiling it again. Node 20 has none.
enableCompileCache?.();
const { launch } = require('../dist/bundle/quick.cjs');

launch(process.argv, pathToFileURL(`${path.join(__dirname, '..', 'dist', 'bundle')}${path.sep}`));
