/**
 * Cold start of `taskweave acp` until its answer to `initialize` (what an editor waits for
 * before it shows the agent), beside `taskweave --help` until exit and a bare node (`-e 0`), each
 * a new process of the built CLI. They take turns after one untimed warm-up round; the table shows
 * min / median / max, then one summary line.
 *
 * Needs the build (`npm run build`). Run: npx tsx bench/acp-startup.ts [runs]   (default 15)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTable } from '../src/cli/render/table.js';

const RUNS = Number(process.argv[2] ?? 15);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'bin', 'taskweave.js');
const HOME = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-acp-'));
const ENV = { ...process.env, XDG_CONFIG_HOME: HOME, NO_COLOR: '1' };

/** Milliseconds from spawn to exit. */
function untilExit(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: ENV, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
}

/** Milliseconds from spawn to the first line on stdout: the answer to `initialize`. */
function untilInitialized(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'acp', '--model', 'openai:gpt-4o-mini'], {
      env: { ...ENV, OPENAI_API_KEY: 'unused' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.on('error', reject);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const elapsed = performance.now() - started;
      if (!out.includes('"protocolVersion"')) reject(new Error(`unexpected answer: ${out}`));
      child.stdin.end();
      child.on('exit', () => resolve(elapsed));
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } })}\n`,
    );
  });
}

const COMMANDS: [string, () => Promise<number>][] = [
  ['node -e 0', () => untilExit(['-e', '0'])],
  ['taskweave --help', () => untilExit([CLI, '--help'])],
  ['taskweave acp → initialize', untilInitialized],
];

const times = new Map<string, number[]>(COMMANDS.map(([name]) => [name, []]));
for (const [, measure] of COMMANDS) await measure();
for (let run = 0; run < RUNS; run += 1)
  for (const [name, measure] of COMMANDS) times.get(name)?.push(await measure());
rmSync(HOME, { recursive: true, force: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (value: number) => value.toFixed(0);
process.stdout.write(
  `${renderTable({
    columns: [
      { header: 'command' },
      { header: 'runs', align: 'right' },
      { header: 'min ms', align: 'right' },
      { header: 'median ms', align: 'right' },
      { header: 'max ms', align: 'right' },
    ],
    rows: COMMANDS.map(([name]) => {
      const values = times.get(name) ?? [];
      return [
        name,
        String(values.length),
        ms(Math.min(...values)),
        ms(median(values)),
        ms(Math.max(...values)),
      ];
    }),
  })}\n`,
);
const help = median(times.get('taskweave --help') ?? []);
const acp = median(times.get('taskweave acp → initialize') ?? []);
process.stdout.write(
  `taskweave acp answers initialize in ${ms(acp)} ms (median), ${ms(acp - help)} ms more than --help takes to exit (${ms(help)} ms).\n`,
);
