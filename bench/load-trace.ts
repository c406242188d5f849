/**
 * Which files a run of the built CLI loads: runs `node bin/taskweave.js <args>` with
 * bench/load-trace.mjs preloaded and reads back what it wrote. The CLI is bundled
 * (scripts/bundle.mjs): a chunk of dist/bundle/ that was loaded stands for the source files and
 * package files it holds (dist/bundle-meta.json, esbuild's metafile), so a package counts as
 * loaded whether it sits in a chunk or in node_modules. Used by bench/startup-modules.ts (the
 * report) and by the test that keeps the heavy packages off the quick commands' paths.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Packages whose loading costs enough to keep off the path of a quick command. */
export const HEAVY_PACKAGES = [
  'ai',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  '@ai-sdk/openai',
  '@ai-sdk/openai-compatible',
  '@ai-sdk/provider',
  '@ai-sdk/provider-utils',
  'better-sqlite3',
  'drizzle-orm',
  'zod',
  '@vscode/ripgrep',
  '@modelcontextprotocol/sdk',
  'fastify',
  'micromark',
  // The width tables of styled text (a Unicode segmenter, an emoji expression): built when loaded.
  'string-width',
  'wrap-ansi',
];

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = path.join(ROOT, 'bin', 'taskweave.js');
const TRACE_PRELOAD = path.join(ROOT, 'bench', 'load-trace.mjs');
const BUNDLE_META = path.join(ROOT, 'dist', 'bundle-meta.json');

/**
 * For each bundle file (absolute path), the absolute paths of the files its loading runs: the
 * modules esbuild did not wrap to run on first use; the wrapped ones (a lazily imported module in
 * the CLI's one-file bundle, a CommonJS package) are traced one by one when initialised
 * (load-trace.mjs, through the hook scripts/bundle.mjs adds).
 */
function bundleContents(): Map<string, string[]> {
  const contents = new Map<string, string[]>();
  const meta = JSON.parse(readFileSync(BUNDLE_META, 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    const file = path.join(ROOT, output);
    const wrapped = wrappedModules(file);
    contents.set(
      file,
      Object.keys(inputs)
        .filter((input) => !wrapped.has(input))
        .map((input) => path.join(ROOT, input)),
    );
  }
  return contents;
}

/** The modules of a bundle that esbuild wrapped (`__esm`, `__commonJS`): run when first imported. */
function wrappedModules(bundle: string): Set<string> {
  const names = new Set<string>();
  for (const match of readFileSync(bundle, 'latin1').matchAll(/= __(?:esm|commonJS)\(\{\n\s+"([^"]+)"\(/g)) {
    names.add(match[1]!);
  }
  return names;
}

/** The package a file belongs to (`@scope/name` or `name`), from its last node_modules segment. */
export function packageOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const name = parts[at + 1];
  if (name === undefined) return undefined;
  return name.startsWith('@') ? `${name}/${parts[at + 2]}` : name;
}

/** How a file is shown: a package file by its package, a built file by its source. */
export function describe(file: string): string {
  const packageName = packageOf(file);
  if (packageName !== undefined) return packageName;
  const relative = path.relative(ROOT, file);
  if (relative.startsWith(`dist${path.sep}bundle${path.sep}`)) return relative;
  return relative.startsWith(`dist${path.sep}`)
    ? relative.replace(/^dist/, 'src').replace(/\.js$/, '.ts')
    : relative;
}

/** Runs the CLI once under the trace and returns the loaded files and the parent → children edges. */
export function trace(args: string[]): {
  files: Set<string>;
  children: Map<string, Set<string>>;
  exit: number | null;
} {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-load-trace-'));
  const out = path.join(folder, 'trace.tsv');
  try {
    const result = spawnSync(process.execPath, ['--import', TRACE_PRELOAD, CLI, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_LOAD_TRACE: out },
    });
    const files = new Set<string>();
    const children = new Map<string, Set<string>>();
    const chunks = bundleContents();
    const toPath = (url: string) => (url.startsWith('file:') ? fileURLToPath(url) : undefined);
    const link = (parent: string, child: string) => {
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)!.add(child);
    };
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const [parentUrl = '', childUrl = ''] = line.split('\t');
      const child = toPath(childUrl);
      if (child === undefined) continue; // node: builtins, data: URLs
      files.add(child);
      // A chunk holds its files: they are loaded with it.
      for (const held of chunks.get(child) ?? []) {
        files.add(held);
        link(child, held);
      }
      const parent = toPath(parentUrl);
      if (parent !== undefined) link(parent, child);
    }
    return { files, children, exit: result.status };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
