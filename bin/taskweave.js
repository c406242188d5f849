#!/usr/bin/env node
// The CLI as bundles (scripts/bundle.mjs): `--help` and `--version` are answered by a small module
// without loading the CLI, and so are `tasks list` and `sessions list` when they can be (another
// small module); everything else loads the CLI's one-file bundle through V8's code cache.
// CommonJS (bin/package.json), like quick.cjs: a launch then starts no ES module loader.
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { launch } = require('../dist/bundle/quick.cjs');

launch(process.argv, pathToFileURL(`${path.join(__dirname, '..', 'dist', 'bundle')}${path.sep}`));
