/**
 * Cold start of the built CLI: how long until `node bin/taskweave.js …` has exited, for
 * `--help`, `--version` and `tasks list` (in a fresh, empty workspace folder), each a new process,
 * next to bare `node -e 0` measured in the same run. The commands take turns (round-robin) after
 * one untimed warm-up round, so that drift in the machine's load hits all of them alike; the
 * table shows min / median / max wall time and the median over bare node's.
 *
 * A command that exits non-zero (e.g. a flag the CLI does not know yet) is still measured and
 * its exit code shown in the table.
 *
 * Needs the build: run `npm run build` first (the bench stops when dist/ is missing or older
 * than src/).
 *
 * Run: npx tsx bench/startup.ts   (exit code 1 when a target is missed)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTable } from '../src/cli/render/table.js';

const RUNS = 10;
/** `--help` may take at most this much longer than bare node. */
const MAX_HELP_OVER_NODE_MS = 120;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'bin', 'taskweave.js');
const BUILT_MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

interface Command {
  label: string;
  args: string[];
}

interface Sample {
  ms: number;
  /** The exit code, or the signal that ended the process. */
  exit: number | string;
}

/** The newest .ts file under `folder` and its modification time. */
function newestSource(folder: string): { file: string; mtimeMs: number } {
  let newest = { file: folder, mtimeMs: 0 };
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { mtimeMs } = statSync(file);
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/** Why the build cannot be measured, or undefined when dist/ is there and newer than src/. */
function buildProblem(): string | undefined {
  if (!existsSync(BUILT_MAIN)) {
    return `${path.relative(ROOT, BUILT_MAIN)} is missing: run \`npm run build\` first`;
  }
  const newest = newestSource(path.join(ROOT, 'src'));
  if (newest.mtimeMs > statSync(BUILT_MAIN).mtimeMs) {
    return `dist/ is older than ${path.relative(ROOT, newest.file)}: run \`npm run build\` first`;
  }
  return undefined;
}

function runOnce(command: Command): Sample {
  const started = performance.now();
  const result = spawnSync(process.execPath, command.args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const ms = performance.now() - started;
  if (result.error !== undefined) throw result.error;
  return { ms, exit: result.status ?? result.signal ?? 'unknown' };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "exit 2", or "exit 2 in 3 of 10 runs" when the runs disagree; empty when all exited 0. */
function exitNote(samples: readonly Sample[]): string {
  const failed = samples.filter((sample) => sample.exit !== 0);
  if (failed.length === 0) return '';
  const codes = [...new Set(failed.map((sample) => String(sample.exit)))].join(', ');
  return failed.length === samples.length
    ? `exit ${codes}`
    : `exit ${codes} in ${failed.length} of ${samples.length} runs`;
}

const problem = buildProblem();
if (problem !== undefined) {
  console.error(`startup: ${problem}`);
  process.exit(1);
}

const workspace = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-startup-'));
const BARE_NODE: Command = { label: 'node -e 0', args: ['-e', '0'] };
const HELP: Command = { label: '--help', args: [CLI, '--help'] };
const commands: Command[] = [
  BARE_NODE,
  HELP,
  { label: '--version', args: [CLI, '--version'] },
  { label: 'tasks list -C <empty dir>', args: [CLI, 'tasks', 'list', '-C', workspace] },
];

const samples = new Map<Command, Sample[]>(commands.map((command) => [command, []]));
try {
  for (const command of commands) runOnce(command);
  for (let run = 0; run < RUNS; run++) {
    for (const command of commands) samples.get(command)!.push(runOnce(command));
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}

const nodeMedian = median(samples.get(BARE_NODE)!.map((sample) => sample.ms));
const milliseconds = (value: number) => value.toFixed(0);
const rows = commands.map((command) => {
  const runs = samples.get(command)!;
  const times = runs.map((sample) => sample.ms);
  const overNode = command === BARE_NODE ? '' : `+${milliseconds(median(times) - nodeMedian)}`;
  return [
    command === BARE_NODE ? command.label : `taskweave ${command.label}`,
    String(runs.length),
    milliseconds(Math.min(...times)),
    milliseconds(median(times)),
    milliseconds(Math.max(...times)),
    overNode,
    exitNote(runs),
  ];
});

console.log(
  `Cold start of node bin/taskweave.js (node ${process.version}): ${RUNS} runs of each command, ` +
    'each a new process, taken in turns after one warm-up round; wall time until exit',
);
process.stdout.write(
  renderTable({
    columns: [
      { header: 'command' },
      { header: 'runs', align: 'right' },
      { header: 'min ms', align: 'right' },
      { header: 'median ms', align: 'right' },
      { header: 'max ms', align: 'right' },
      { header: 'vs node', align: 'right' },
      { header: 'note' },
    ],
    rows,
  }),
);

const helpRuns = samples.get(HELP)!;
const helpOverNode = median(helpRuns.map((sample) => sample.ms)) - nodeMedian;
const helpExitNote = exitNote(helpRuns);
const pass = helpOverNode <= MAX_HELP_OVER_NODE_MS && helpExitNote === '';
console.log(
  `startup: --help +${milliseconds(helpOverNode)} ms over bare node (target ≤ ${MAX_HELP_OVER_NODE_MS} ms)` +
    `${helpExitNote === '' ? '' : ` but ${helpExitNote}`} — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
