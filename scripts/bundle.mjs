// Bundles the CLI into dist/bundle/ with esbuild: one file for what every command loads, and a
// chunk per lazily imported part (each command's action, the agent, the server, eval), so that a
// process opens a few files instead of hundreds (start-up: bench/startup.ts). Packages with
// native code or files of their own found at run time stay outside the bundle.
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const OUT = 'dist/bundle';

/**
 * Loaded from node_modules as they are: native addons, binaries and WebAssembly located through
 * their own path (ripgrep, the bash grammar), the server's plugins, the MCP SDK, the PostgreSQL driver.
 */
const EXTERNAL = [
  'better-sqlite3',
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

rmSync(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  chunkNames: 'chunk-[hash]',
  // CommonJS packages inside an ES module bundle call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __taskweaveCreateRequire } from 'node:module'; const require = __taskweaveCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  plugins: [englishZodLocales],
  logLevel: 'warning',
  metafile: true,
});
// `--help` and `--version` answered without the CLI: one file of its own (no shared chunk: each
// module more is a few milliseconds of loading).
const quick = await build({
  entryPoints: { quick: 'src/cli/quick-answer.ts' },
  outdir: OUT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// `tasks list` and `sessions list` answered without the CLI's parser or the ORM: one file of its
// own too, with better-sqlite3 loaded from node_modules.
const listing = await build({
  entryPoints: { listing: 'src/cli/quick-listing.ts' },
  outdir: OUT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  banner: {
    js: "import { createRequire as __taskweaveCreateRequire } from 'node:module'; const require = __taskweaveCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// What each chunk holds, for bench/startup-modules.ts.
const metafile = {
  inputs: { ...result.metafile.inputs, ...quick.metafile.inputs, ...listing.metafile.inputs },
  outputs: { ...result.metafile.outputs, ...quick.metafile.outputs, ...listing.metafile.outputs },
};
writeFileSync('dist/bundle-meta.json', JSON.stringify(metafile));
// The top-level help as data, for `--help` answered without loading the CLI (quick-answer.ts).
const { topHelpLayout } = await import(pathToFileURL(path.resolve(OUT, 'main.js')).href);
writeFileSync(`${OUT}/help-layout.json`, `${JSON.stringify(topHelpLayout(), null, 2)}\n`);
// The prompt templates are read from next to the code that reads them.
for (const name of readdirSync('src/prompts')) {
  if (name.endsWith('.md')) cpSync(`src/prompts/${name}`, `${OUT}/${name}`);
}
