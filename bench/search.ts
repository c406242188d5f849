/**
 * search_code against raw ripgrep with the same flags, on a generated tree of TREE_FILES files:
 * the tool's wall time (spawn, read and format the output) over ripgrep's alone (its output read
 * and dropped), for a rare pattern and a common one. Timings depend on the machine and its load:
 * the ratio is what counts.
 *
 * Run: npx tsx bench/search.ts   (exit code 1 when a target is missed)
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { renderTable } from '../src/cli/render/table.js';
import { ripgrepArguments, searchCodeTool } from '../src/tools/builtin/search-code.js';
import { FileTracker } from '../src/tools/file-tracker.js';
import { Workspace } from '../src/tools/workspace/workspace.js';

const TREE_FILES = 30_000;
const FILES_PER_FOLDER = 100;
const REPETITIONS = 7;
const MAX_RATIO_TO_RAW = 1.05;
const PATTERNS = [
  { name: 'rare (30 matches)', pattern: 'needle_[0-9]+' },
  { name: 'common (every file)', pattern: 'export function' },
];

function fileText(index: number): string {
  const lines = [`export function f${index}(value: number): number {`];
  for (let line = 0; line < 20; line++)
    lines.push(`  const v${line} = value * ${line}; // filler text for the search`);
  if (index % 1000 === 0) lines.push(`  // needle_${index}`);
  lines.push('  return value;', '}');
  return `${lines.join('\n')}\n`;
}

async function buildTree(root: string): Promise<void> {
  for (let folder = 0; folder < TREE_FILES / FILES_PER_FOLDER; folder++) {
    const dir = path.join(root, `pkg${folder}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES_PER_FOLDER }, (_, file) => {
        const index = folder * FILES_PER_FOLDER + file;
        return writeFile(path.join(dir, `m${index}.ts`), fileText(index));
      }),
    );
  }
}

function rawRipgrep(root: string, pattern: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ripgrepArguments(pattern, undefined), {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.on('data', () => {});
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

async function tool(workspace: Workspace, pattern: string): Promise<number> {
  const started = performance.now();
  const result = await searchCodeTool.run(
    { pattern },
    {
      workspace,
      sandbox: { kind: 'none' },
      signal: new AbortController().signal,
      control: { requestInput: async () => ({ status: 'unavailable' }) },
      model: { complete: async () => '' },
      files: new FileTracker(),
      progress: () => {},
      callId: 'bench',
      step: 1,
    },
  );
  if (result.isError) throw new Error(result.output);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const root = await mkdtemp(path.join(tmpdir(), 'taskweave-bench-search-'));
try {
  await buildTree(root);
  const workspace = await Workspace.open(root);
  const rows: string[][] = [];
  let worst = 0;
  for (const { name, pattern } of PATTERNS) {
    await rawRipgrep(root, pattern); // warm the page cache
    const raw: number[] = [];
    const wrapped: number[] = [];
    // Interleaved, so that the machine's load drifts over both alike.
    for (let repetition = 0; repetition < REPETITIONS; repetition++) {
      raw.push(await rawRipgrep(root, pattern));
      wrapped.push(await tool(workspace, pattern));
    }
    const ratio = median(wrapped) / median(raw);
    worst = Math.max(worst, ratio);
    rows.push([name, median(raw).toFixed(1), median(wrapped).toFixed(1), ratio.toFixed(3)]);
  }
  console.log(`search_code vs raw ripgrep (same flags), ${TREE_FILES} files, median of ${REPETITIONS}`);
  process.stdout.write(
    renderTable({
      columns: [
        { header: 'pattern', align: 'left' },
        { header: 'rg ms', align: 'right' },
        { header: 'search_code ms', align: 'right' },
        { header: 'ratio', align: 'right' },
      ],
      rows,
    }),
  );
  const pass = worst <= MAX_RATIO_TO_RAW;
  console.log(
    `search: search_code at worst ${worst.toFixed(3)}× raw ripgrep (target ≤ ${MAX_RATIO_TO_RAW}) — ${pass ? 'PASS' : 'FAIL'}`,
  );
  if (!pass) process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
