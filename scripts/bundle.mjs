// Bundles the CLI into dist/bundle/ with esbuild: one file for the CLI (main.cjs), one for what
// bin/taskweave.js loads first (quick.cjs: --help and --version, else the CLI) and one for the
// quick listings (listing.js), so that a process opens a few files instead of hundreds (start-up:
// bench/startup.ts). Packages with native code or files of their own found at run time stay
// outside the bundle.
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const OUT = 'dist/bundle';

/**
 * Loaded from node_modules as they are: binaries and WebAssembly located through their own path
 * (ripgrep, the bash grammar), the server's plugins, the MCP SDK, the PostgreSQL driver.
 * better-sqlite3's JavaScript is bundled (its addon is named to it: src/store/sqlite/sqlite-binding.ts);
 * `bindings`, which it uses to find the addon when it is not named, only then, from node_modules.
 */
const EXTERNAL = [
  'bindings',
  // The PostgreSQL driver (loaded only for a --store postgres://…) and PGlite (tests only).
  'pg',
  '@electric-sql/pglite',
  '@vscode/ripgrep',
  'fastify',
  '@fastify/*',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/sdk/*',
  'web-tree-sitter',
  'tree-sitter-bash',
  // Image scaling: a native addon with its own prebuilt libvips, loaded only when an image comes in.
  'sharp',
];

/**
 * zod's namespace of message locales (`z.locales`) holds ~40 languages, 366 KB of code that every
 * process loading zod would parse; taskweave's messages are English, so the bundle's namespace
 * holds English only (the default zod configures itself with stays what it is).
 */
const englishZodLocales = {
  name: 'english-zod-locales',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/** The modules whose tools' schemas the build converts (src/tools/built-schemas.ts), under dist/. */
const BUILT_SCHEMA_MODULES = [
  'tools/registry.js',
  'agent/todo/todo-tools.js',
  'agent/orchestrator/control-tools.js',
  'agent/orchestrator/plan-tool.js',
  'agent/subagents/delegate-tool.js',
];

rmSync(OUT, { recursive: true, force: true });
// The CLI: one CommonJS file (CommonJS like the bin, so that a launch starts no ES module
// loader). Lazily imported parts (each command's action, the agent, the server, eval) stay lazy:
// esbuild runs a module's top level only when it is first imported.
const result = await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outfile: `${OUT}/main.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS has no `import.meta`: the code's `import.meta.url` (finding the package's root, the
  // prompts, the bash grammar) is the bundle's own URL, from a module esbuild injects.
  inject: ['scripts/import-meta-url.js'],
  define: { 'import.meta.url': 'importMetaUrl' },
  legalComments: 'none',
  plugins: [englishZodLocales],
  logLevel: 'warning',
  metafile: true,
});

// What bin/taskweave.js runs: `--help` and `--version` answered without the CLI, else the CLI:
// one file of its own (each module more is a few milliseconds of loading), CommonJS like
// the bin, so that a launch starts no ES module loader (listing.js is imported when needed).
const quick = await build({
  entryPoints: { quick: 'src/cli/launch.ts' },
  outfile: `${OUT}/quick.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// `tasks list` and `sessions list` answered without the CLI's parser or the ORM: one file of its
// own too, with better-sqlite3's addon loaded from node_modules.
const listing = await build({
  entryPoints: { listing: 'src/cli/quick-listing.ts' },
  outdir: OUT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['bindings'],
  banner: {
    js: "import { createRequire as __taskweaveCreateRequire } from 'node:module'; const require = __taskweaveCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// What each bundle holds, for bench/startup-modules.ts.
const metafile = {
  inputs: { ...result.metafile.inputs, ...quick.metafile.inputs, ...listing.metafile.inputs },
  outputs: { ...result.metafile.outputs, ...quick.metafile.outputs, ...listing.metafile.outputs },
};
writeFileSync('dist/bundle-meta.json', JSON.stringify(metafile));
// The top-level help as data, for `--help` answered without loading the CLI (quick-answer.ts).
const { topHelpLayout } = createRequire(import.meta.url)(path.resolve(`${OUT}/main.cjs`));
writeFileSync(`${OUT}/help-layout.json`, `${JSON.stringify(topHelpLayout(), null, 2)}\n`);
// The tools' JSON Schemas, converted from their zod schemas once here (by tsc's output of the same
// code) instead of at the start of every run (src/agent/protocol/model-tools.ts reads them): the
// modules that register them (src/tools/built-schemas.ts) first.
const fromDist = (file) => import(pathToFileURL(path.resolve('dist', file)).href);
for (const file of BUILT_SCHEMA_MODULES) await fromDist(file);
const modelTools = await fromDist('agent/protocol/model-tools.js');
writeFileSync(`${OUT}/${modelTools.BUILT_SCHEMAS_FILE}`, JSON.stringify(modelTools.builtToolSchemas()));
// The prompt templates are read from next to the code that reads them.
for (const name of readdirSync('src/prompts')) {
  if (name.endsWith('.md') && name !== 'README.md') cpSync(`src/prompts/${name}`, `${OUT}/${name}`);
}
