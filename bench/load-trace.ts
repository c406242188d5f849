/**
 * Which files a run of the built CLI loads, measured from outside the process: runs `node
 * bin/taskweave.js <args>` with bench/load-trace.mjs preloaded (module files, in order) and with
 * V8's coverage on (`NODE_V8_COVERAGE`). The CLI is bundled (scripts/bundle.mjs): a bundle file
 * holds many modules, and esbuild wraps a lazily imported module or a CommonJS package in a
 * function named after its path that runs on first use, so a bundled module counts as loaded when
 * its function ran (its coverage count) — no hook in the bundle. Used by bench/startup-modules.ts
 * (the report) and by the tests that keep the heavy packages off the quick commands' paths.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** What a bundle file holds: the modules run when it loads, and those run on first use. */
interface BundleContents {
  eager: string[];
  wrapped: Set<string>;
}

/**
 * For each bundle file (absolute path), its modules (paths relative to the checkout, as esbuild's
 * metafile names them): those run when the file loads, and those esbuild wrapped in its lazy
 * helpers (read from the file's text) to run on first use.
 */
function bundleContents(): Map<string, BundleContents> {
  const contents = new Map<string, BundleContents>();
  const meta = JSON.parse(readFileSync(BUNDLE_META, 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    const file = path.join(ROOT, output);
    const wrapped = wrappedModules(file);
    contents.set(file, { eager: Object.keys(inputs).filter((input) => !wrapped.has(input)), wrapped });
  }
  return contents;
}

/** The modules of a bundle that esbuild wrapped to run when first imported (an ES module, a CommonJS one). */
function wrappedModules(bundle: string): Set<string> {
  const names = new Set<string>();
  for (const match of readFileSync(bundle, 'utf8').matchAll(/= __(?:esm|commonJS)\(\{\n\s+"([^"]+)"\(/g)) {
    names.add(match[1]!);
  }
  return names;
}

/** One script's functions in V8's coverage (the shape `NODE_V8_COVERAGE` writes). */
interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

/** For each script the process ran (file URL), the names of its functions that ran. */
function functionsRan(coverageFolder: string): Map<string, Set<string>> {
  const ran = new Map<string, Set<string>>();
  for (const name of readdirSync(coverageFolder)) {
    const { result } = JSON.parse(readFileSync(path.join(coverageFolder, name), 'utf8')) as {
      result: ScriptCoverage[];
    };
    for (const script of result) {
      const names = ran.get(script.url) ?? new Set<string>();
      for (const fn of script.functions) if ((fn.ranges[0]?.count ?? 0) > 0) names.add(fn.functionName);
      ran.set(script.url, names);
    }
  }
  return ran;
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

/**
 * Runs the CLI once under the trace and returns the loaded files (in the order they were first
 * seen; a bundle's modules after the bundle) and the parent → children edges.
 */
export function trace(args: string[]): {
  files: Set<string>;
  children: Map<string, Set<string>>;
  exit: number | null;
} {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-load-trace-'));
  const out = path.join(folder, 'trace.tsv');
  const coverage = path.join(folder, 'coverage');
  try {
    const result = spawnSync(process.execPath, ['--import', TRACE_PRELOAD, CLI, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_LOAD_TRACE: out, NODE_V8_COVERAGE: coverage },
    });
    const files = new Set<string>();
    const children = new Map<string, Set<string>>();
    const bundles = bundleContents();
    const ran = functionsRan(coverage);
    const toPath = (url: string) => (url.startsWith('file:') ? fileURLToPath(url) : undefined);
    const link = (parent: string, child: string) => {
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)!.add(child);
    };
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const [parentUrl = '', childUrl = ''] = line.split('\t');
      const child = toPath(childUrl);
      if (child === undefined) continue; // node: builtins, data: URLs
      const parent = toPath(parentUrl);
      if (parent !== undefined) link(parent, child);
      if (files.has(child)) continue;
      files.add(child);
      // A bundle holds its modules: those it runs on load, and the wrapped ones that ran.
      const bundle = bundles.get(child);
      if (bundle === undefined) continue;
      const names = ran.get(childUrl) ?? new Set<string>();
      const held = [...bundle.eager, ...[...bundle.wrapped].filter((name) => names.has(name))];
      for (const input of held) {
        const file = path.join(ROOT, input);
        files.add(file);
        link(child, file);
      }
    }
    return { files, children, exit: result.status };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
