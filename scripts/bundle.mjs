// Bundles the CLI into dist/bundle/ with esbuild: one file for what every command loads, and a
// chunk per lazily imported part (each command's action, the agent, the server, eval), so that a
// process opens a few files instead of hundreds (start-up: bench/startup.ts). Packages with
// native code or files of their own found at run time stay outside the bundle.
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/bundle';

/**
 * Loaded from node_modules as they are: native addons, binaries and WebAssembly located through
 * their own path (ripgrep, the bash grammar), the server's plugins, the MCP SDK.
 */
const EXTERNAL = [
  'better-sqlite3',
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
// What each chunk holds, for bench/startup-modules.ts.
writeFileSync('dist/bundle-meta.json', JSON.stringify(result.metafile));
// The prompt templates are read from next to the code that reads them.
for (const name of readdirSync('src/prompts')) {
  if (name.endsWith('.md')) cpSync(`src/prompts/${name}`, `${OUT}/${name}`);
}
