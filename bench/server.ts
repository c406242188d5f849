/**
 * `taskweave serve` under 50 sessions at once: 50 WebSocket clients connect to one server (a real
 * process, script model), each sends a goal at the same moment and follows its own session.
 * A workspace runs one goal at a time (the queue), so the sessions run one after another while
 * all 50 clients stay connected and subscribed.
 *
 * Measured: events delivered per second, the latency from an event's `ts` (stamped when the
 * server logs it) to its arrival at the client (p50/p99/max), the server's RSS growth per session,
 * and whether any client lost or reordered an event (its seqs against the session's log). The
 * baseline is the same 50 goals through the CLI's `--json` (one `taskweave run` per goal),
 * timed the same way from `ts` to the line's arrival, in the same run.
 *
 * Needs the build (`npm run build`). Run: npx tsx bench/server.ts [--sessions N]
 * Exit code 1 when the target is missed: p99 ≤ 10 ms at 50 sessions, nothing lost or reordered.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { renderTable } from '../src/cli/render/table.js';
import type { ServerEvent } from '../src/events/registry.js';

const SESSIONS = Number(process.argv[process.argv.indexOf('--sessions') + 1]) || 50;
const MAX_P99_MS = 10;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'bin', 'taskweave.js');

/** One goal's script turns: a tool call with some text, then a streamed answer. */
function turnsFor(index: number) {
  const tag = `session ${index}:`;
  const answer = Array.from({ length: 40 }, (_, word) => `word${word}`).join(' ');
  return [
    {
      when: tag,
      text: 'Let me look.',
      toolCalls: [{ name: 'run_command', args: { command: `echo ${index}` } }],
    },
    { when: tag, text: `${answer} (${index})` },
  ];
}

function writeScript(folder: string): string {
  const file = path.join(folder, 'script.json');
  const turns = Array.from({ length: SESSIONS }, (_, index) => turnsFor(index)).flat();
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
}

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function startServer(workspace: string, script: string) {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '-C', workspace, '--model', `script:${script}`, '--approval', 'auto'],
    {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<URL>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /Open (http:\/\/\S+)/.exec(line);
      if (match) resolve(new URL(match[1]!));
    });
    child.on('exit', () => reject(new Error('serve exited before printing its URL')));
  });
  return { child, url };
}

/** The token of the URL serve printed: in its fragment (`/#token=…`). */
function tokenOf(url: URL): string {
  return new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
}

interface ClientResult {
  sessionId: string;
  latencies: number[];
  seqs: number[];
}

/** One client: sends its goal, follows its session until response_complete. */
function runClient(url: URL, index: number, start: Promise<void>): Promise<ClientResult> {
  const socket = new WebSocket(`ws://${url.host}/ws`, {
    headers: { authorization: `Bearer ${tokenOf(url)}` },
  });
  const result: ClientResult = { sessionId: '', latencies: [], seqs: [] };
  return new Promise((resolve, reject) => {
    socket.on('open', () => {
      void start.then(() =>
        socket.send(JSON.stringify({ type: 'chat', content: `session ${index}: say hello` })),
      );
    });
    socket.on('message', (data) => {
      const received = Date.now();
      const event = JSON.parse(String(data)) as ServerEvent;
      if (event.type === 'error') reject(new Error(`client ${index}: ${event.message}`));
      if (event.seq === 0) return;
      result.sessionId = event.session_id;
      result.latencies.push(received - event.ts);
      result.seqs.push(event.seq);
      if (event.type === 'response_complete') {
        socket.close();
        resolve(result);
      }
    });
    socket.on('error', reject);
  });
}

/** The CLI baseline: each goal through `taskweave run --json`, latency from ts to the line's arrival. */
async function cliBaseline(workspace: string, script: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < SESSIONS; index += 1) {
    const child: ChildProcess = spawn(
      process.execPath,
      [
        CLI,
        'run',
        `session ${index}: say hello`,
        '--json',
        '-C',
        workspace,
        '--model',
        `script:${script}`,
        '--approval',
        'auto',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const received = Date.now();
      const event = JSON.parse(line) as ServerEvent;
      latencies.push(received - event.ts);
    });
    await new Promise((resolve) => child.on('close', resolve));
  }
  return latencies;
}

async function main() {
  const serverWorkspace = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-server-'));
  const cliWorkspace = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-cli-'));
  const script = writeScript(serverWorkspace);
  const { child, url } = await startServer(serverWorkspace, script);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const rssBefore = rssKiB(child.pid!);

  let go!: () => void;
  const start = new Promise<void>((resolve) => (go = resolve));
  const clients = Array.from({ length: SESSIONS }, (_, index) => runClient(url, index, start));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const began = Date.now();
  go();
  const results = await Promise.all(clients);
  const wallMs = Date.now() - began;
  const rssAfter = rssKiB(child.pid!);

  // Lost or reordered: each client's seqs must be exactly 1..N of its session's log.
  let broken = 0;
  for (const result of results) {
    const response = await fetch(`http://${url.host}/api/sessions/${result.sessionId}/events`, {
      headers: { authorization: `Bearer ${tokenOf(url)}` },
    });
    const logged = ((await response.json()) as { events: ServerEvent[] }).events.length;
    const inOrder = result.seqs.every((seq, index) => seq === index + 1);
    if (!inOrder || result.seqs.length !== logged) broken += 1;
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('close', resolve));

  const serverLatencies = results.flatMap((result) => result.latencies).sort((a, b) => a - b);
  const cliLatencies = (await cliBaseline(cliWorkspace, writeScript(cliWorkspace))).sort((a, b) => a - b);
  const events = serverLatencies.length;
  const row = (label: string, latencies: number[], extra: string[]) => [
    label,
    String(latencies.length),
    String(percentile(latencies, 50)),
    String(percentile(latencies, 99)),
    String(latencies.at(-1) ?? Number.NaN),
    ...extra,
  ];
  console.log(
    renderTable({
      columns: [
        { header: 'path' },
        { header: 'events', align: 'right' },
        { header: 'p50 ms', align: 'right' },
        { header: 'p99 ms', align: 'right' },
        { header: 'max ms', align: 'right' },
        { header: 'events/s', align: 'right' },
        { header: 'RSS/session', align: 'right' },
        { header: 'lost or reordered', align: 'right' },
      ],
      rows: [
        row(`serve, ${SESSIONS} WebSocket clients`, serverLatencies, [
          String(Math.round((events / wallMs) * 1000)),
          `${Math.round((rssAfter - rssBefore) / SESSIONS)} KiB`,
          `${broken} of ${SESSIONS}`,
        ]),
        row(`run --json, ${SESSIONS} processes (baseline)`, cliLatencies, ['', '', '']),
      ],
    }),
  );
  console.log(
    `server RSS ${Math.round(rssBefore / 1024)} MiB before, ${Math.round(rssAfter / 1024)} MiB after ${SESSIONS} sessions; wall ${wallMs} ms`,
  );
  const p99 = percentile(serverLatencies, 99);
  const pass = p99 <= MAX_P99_MS && broken === 0;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: ${SESSIONS} sessions, ${events} events, p99 ${p99} ms (target ≤ ${MAX_P99_MS}, CLI --json ${percentile(cliLatencies, 99)} ms), ${broken} lost or reordered`,
  );
  process.exitCode = pass ? 0 : 1;
}

await main();
