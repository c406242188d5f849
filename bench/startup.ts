/**
 * Cold start of the built CLI, each command a new process, beside a bare node (`-e 0`) measured in
 * the same run: `--help`, `--version`, `tasks list` and `sessions list` (in a workspace whose
 * database holds three tasks and a session) until the process has exited, and `run` until its
 * first model request reaches a local OpenAI-compatible server (a real HTTP server in this
 * process that answers with a streamed reply, so the run completes). The commands take turns
 * (round-robin) after one untimed warm-up round, so that drift in the machine's load hits all of
 * them alike; the table shows min / median / max and the median over bare node's.
 *
 * Targets (issue 22): --help and --version within 20 ms of bare node, the listings within 80 ms,
 * the first model request within 250 ms of launch. Where Node has a compile cache (Node >= 22.1,
 * enabled by bin/taskweave.js), it lives in a folder of this run, written by the warm-up round.
 *
 * Needs the build: run `npm run build` first (the bench stops when dist/ is missing or older
 * than src/).
 *
 * Run: npx tsx bench/startup.ts [runs]   (default 20; exit code 1 when a target is missed)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTable } from '../src/cli/render/table.js';

const RUNS = Number(process.argv[2] ?? 20);
/** Node's compile cache of this run (where the platform has one), written by the warm-up round. */
const COMPILE_CACHE = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-startup-cache-'));

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'bin', 'taskweave.js');
const BUILT_MAIN = path.join(ROOT, 'dist', 'bundle', 'main.cjs');

interface Command {
  label: string;
  args: string[];
  /** Over bare node's median, at most (ms); for `run`, from launch to the first request. */
  target?: number;
  /** Timed until the first model request instead of until the process exits. */
  untilRequest?: boolean;
  /** More environment for the process. */
  env?: Record<string, string>;
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

/**
 * A local OpenAI-compatible server: each chat completion request resolves the waiter of the run
 * that sent it, then gets a short streamed reply.
 */
class FirstRequestServer {
  private waiter: ((at: number) => void) | undefined;
  readonly server: Server = createServer((request, response) => {
    const at = performance.now();
    request.resume();
    request.on('end', () => {
      this.waiter?.(at);
      this.waiter = undefined;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (body: object) =>
        `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench', ...body })}\n\n`;
      response.write(
        chunk({
          choices: [{ index: 0, delta: { role: 'assistant', content: 'Done.' }, finish_reason: null }],
        }),
      );
      response.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      response.write(chunk({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 2 } }));
      response.end('data: [DONE]\n\n');
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  nextRequest(): Promise<number> {
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}

function exited(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
}

async function runOnce(command: Command, server: FirstRequestServer): Promise<Sample> {
  const request = command.untilRequest ? server.nextRequest() : undefined;
  const started = performance.now();
  const child = spawn(process.execPath, command.args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: COMPILE_CACHE, ...command.env },
  });
  if (request === undefined) {
    const exit = await exited(child);
    return { ms: performance.now() - started, exit };
  }
  const ended = exited(child);
  const first = await Promise.race([request, ended.then(() => undefined)]);
  const exit = await ended;
  return {
    ms: (first ?? Number.NaN) - started,
    exit: first === undefined ? `${exit} before a request` : exit,
  };
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

/** A workspace whose database holds three tasks and one finished session, made with the CLI. */
function seededWorkspace(): string {
  const workspace = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-startup-'));
  const cli = (...args: string[]) => {
    const result = spawnSync(process.execPath, [CLI, ...args, '-C', workspace], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`taskweave ${args.join(' ')}: ${result.stderr}`);
  };
  for (const title of ['write the README', 'add a --dry-run flag', 'fix the flaky test']) {
    cli('tasks', 'add', title);
  }
  const script = path.join(workspace, 'script.json');
  writeFileSync(script, JSON.stringify({ turns: [{ text: 'Nothing to do.' }] }));
  cli('run', '--model', `script:${script}`, 'say hello');
  return workspace;
}

const problem = buildProblem();
if (problem !== undefined) {
  console.error(`startup: ${problem}`);
  process.exit(1);
}

const server = new FirstRequestServer();
const baseUrl = await server.listen();
const workspace = seededWorkspace();
const BARE_NODE: Command = { label: 'bare node', args: ['-e', '0'] };
const commands: Command[] = [
  BARE_NODE,
  { label: 'taskweave --help', args: [CLI, '--help'], target: 20 },
  { label: 'taskweave --version', args: [CLI, '--version'], target: 20 },
  { label: 'taskweave tasks list', args: [CLI, 'tasks', 'list', '-C', workspace], target: 80 },
  { label: 'taskweave sessions list', args: [CLI, 'sessions', 'list', '-C', workspace], target: 80 },
  {
    label: 'taskweave run: first request',
    args: [
      CLI,
      'run',
      '-C',
      workspace,
      '--model',
      'openai-compatible:bench',
      '--base-url',
      baseUrl,
      'say hi',
    ],
    target: 250,
    untilRequest: true,
  },
];

const samples = new Map<Command, Sample[]>(commands.map((command) => [command, []]));
try {
  for (const command of commands) await runOnce(command, server);
  for (let run = 0; run < RUNS; run++) {
    for (const command of commands) samples.get(command)!.push(await runOnce(command, server));
  }
} finally {
  server.server.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(COMPILE_CACHE, { recursive: true, force: true });
}

const nodeMedian = median(samples.get(BARE_NODE)!.map((sample) => sample.ms));
const milliseconds = (value: number) => value.toFixed(0);
const results = commands.map((command) => {
  const runs = samples.get(command)!;
  const times = runs.map((sample) => sample.ms);
  const value = command.untilRequest ? median(times) : median(times) - nodeMedian;
  const note = exitNote(runs);
  const met = command.target === undefined || (value <= command.target && note === '');
  return { command, runs, times, value, note, met };
});
const rows = results.map(({ command, runs, times, value, note, met }) => [
  command.label,
  String(runs.length),
  milliseconds(Math.min(...times)),
  milliseconds(median(times)),
  milliseconds(Math.max(...times)),
  command === BARE_NODE
    ? ''
    : command.untilRequest
      ? `${milliseconds(value)} from launch`
      : `+${milliseconds(value)}`,
  command.target === undefined
    ? ''
    : `${command.untilRequest ? '≤ ' : '≤ +'}${command.target} ${met ? 'met' : 'MISSED'}`,
  note,
]);

console.log(
  `Cold start of node bin/taskweave.js (node ${process.version}): ${RUNS} runs of each command, ` +
    'each a new process, taken in turns after one warm-up round; wall time until exit (run: until its first model request)',
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
      { header: 'target' },
      { header: 'note' },
    ],
    rows,
  }),
);

const missed = results.filter((result) => !result.met);
const summary = results
  .filter((result) => result.command.target !== undefined)
  .map(
    (result) =>
      `${result.command.label.replace('taskweave ', '')} ${result.command.untilRequest ? '' : '+'}${milliseconds(result.value)}`,
  )
  .join(', ');
console.log(
  `startup: ${summary} ms (bare node ${milliseconds(nodeMedian)} ms) — ${missed.length === 0 ? 'PASS' : `FAIL (${missed.length} missed)`}`,
);
if (missed.length > 0) process.exitCode = 1;
