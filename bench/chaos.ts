/**
 * The chaos suite: episodes of the whole agent, run in-process through the runtime (src/runtime)
 * on a temp workspace with a real SQLite store, against the chaos model (bench/chaos-model.ts),
 * which misbehaves at random: premature final answers, malformed JSON, unknown tools, invalid
 * arguments, the same call forever, empty, truncated and filtered replies, huge replies, 429 and
 * 5xx, stalls (short stream timeouts here), crashing commands, too many calls in one reply. Each
 * episode picks simple or plan mode, the native or JSON protocol and the react or roa loop from
 * the seed, so any episode replays from `--seed` and its number.
 *
 * It reports episodes by final status with their reasons, crashes (an exception out of the
 * runtime, or a status that is not a named one, or one without a reason), hangs (an episode
 * past its watchdog) and unhandled rejections, prints a table and ends with one summary line.
 * Targets: 0 crashes, 0 hangs, 0 unhandled rejections, every episode in a named status with a
 * reason.
 *
 * Run: npx tsx bench/chaos.ts --episodes 1000 --seed 1 [--concurrency 4] [--watchdog-ms 60000]
 *      [--dir /dev/shm]   (exit code 1 when a target is missed)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderTable } from '../src/cli/render/table.js';
import { type PlanMode, type ProtocolName, Runtime } from '../src/runtime/index.js';
import { type Behaviour, ChaosModel, seededRandom } from './chaos-model.js';

/** Statuses a run may end in (protocol.md). */
const NAMED_STATUSES = new Set(['completed', 'failed', 'stopped', 'max_steps', 'needs_input']);
/** The stream timeouts of the chaos runs: stalls cost this much, not minutes. */
const STALL_TIMEOUT_MS = 40;
const MAX_STEPS = 25;
const CHAOS_RATE = 0.35;
const DEFAULT_WATCHDOG_MS = 60_000;

export interface ChaosOptions {
  episodes: number;
  seed: number;
  /** Episodes run at the same time (each has its own workspace and database). */
  concurrency?: number;
  /** An episode still running after this long is a hang. */
  watchdogMs?: number;
  /** Where the episodes' temp workspaces go (default: the system's temp folder). */
  dir?: string;
}

/** One episode's setting and outcome. */
export interface EpisodeResult {
  episode: number;
  setting: string;
  status: string;
  reason: string;
  crash?: string;
  hang?: boolean;
  ms: number;
}

/** The whole run's figures. */
export interface ChaosSummary {
  episodes: EpisodeResult[];
  crashes: number;
  hangs: number;
  unhandledRejections: number;
  /** Episodes whose status is named but which came without a reason (or an answer). */
  unexplained: number;
  behaviours: Map<Behaviour, number>;
  wallMs: number;
}

/** Runs the episodes and returns what became of them. */
export async function runChaos(options: ChaosOptions): Promise<ChaosSummary> {
  const previousBase = process.env.TASKWEAVE_RETRY_BASE_MS;
  process.env.TASKWEAVE_RETRY_BASE_MS = '1';
  let unhandledRejections = 0;
  const onRejection = (error: unknown) => {
    unhandledRejections += 1;
    console.error('unhandled rejection:', error);
  };
  process.on('unhandledRejection', onRejection);
  const behaviours = new Map<Behaviour, number>();
  const results: EpisodeResult[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < options.episodes) {
      const episode = next++;
      results.push(await runEpisode(episode, options, behaviours));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  } finally {
    process.off('unhandledRejection', onRejection);
    if (previousBase === undefined) delete process.env.TASKWEAVE_RETRY_BASE_MS;
    else process.env.TASKWEAVE_RETRY_BASE_MS = previousBase;
  }
  results.sort((a, b) => a.episode - b.episode);
  return {
    episodes: results,
    crashes: results.filter((result) => result.crash !== undefined).length,
    hangs: results.filter((result) => result.hang).length,
    unhandledRejections,
    unexplained: results.filter((result) => !result.crash && !result.hang && result.reason.trim() === '')
      .length,
    behaviours,
    wallMs: performance.now() - started,
  };
}

async function runEpisode(
  episode: number,
  options: ChaosOptions,
  behaviours: Map<Behaviour, number>,
): Promise<EpisodeResult> {
  const random = seededRandom(options.seed * 1_000_003 + episode);
  const plan: PlanMode = (['auto', 'always', 'never'] as const)[Math.floor(random() * 3)] ?? 'auto';
  const protocol: ProtocolName = random() < 0.5 ? 'native' : 'json';
  const loop = random() < 0.5 ? 'react' : 'roa';
  const setting = `${plan === 'never' ? 'simple' : `plan ${plan}`}/${protocol}/${loop}`;
  const model = new ChaosModel(random, CHAOS_RATE);
  const root = await mkdtemp(path.join(options.dir ?? tmpdir(), 'taskweave-chaos-'));
  const started = performance.now();
  const base = { episode, setting };
  let runtime: Runtime | undefined;
  try {
    runtime = await Runtime.open({
      cwd: root,
      languageModel: {
        id: 'chaos:model',
        model,
        timeouts: { firstTokenMs: STALL_TIMEOUT_MS, idleMs: STALL_TIMEOUT_MS },
      },
      env: { ...process.env, XDG_CONFIG_HOME: root },
      plan,
      protocol,
      loop,
      maxSteps: MAX_STEPS,
      onFailure: 'abort',
      approval: 'auto',
      sandbox: 'off',
      policy: { input: 'nobody', approval: 'nobody', plan: 'approve', failure: 'abort' },
    });
    const submission = await runtime.submit(`Chaos episode ${episode}: write some notes.`);
    if (submission.kind !== 'started') throw new Error(`the goal was ${submission.kind}, not started`);
    let timer: NodeJS.Timeout | undefined;
    const watchdog = new Promise<'hang'>((resolve) => {
      timer = setTimeout(() => resolve('hang'), options.watchdogMs ?? DEFAULT_WATCHDOG_MS);
    });
    const outcome = await Promise.race([submission.done, watchdog]).finally(() => clearTimeout(timer));
    const ms = performance.now() - started;
    if (outcome === 'hang') {
      runtime.stop();
      return {
        ...base,
        status: 'hang',
        reason: `still running after ${options.watchdogMs ?? DEFAULT_WATCHDOG_MS} ms`,
        hang: true,
        ms,
      };
    }
    const { status, reason, finalAnswer } = outcome.result;
    if (!NAMED_STATUSES.has(status)) {
      return { ...base, status, reason: reason ?? '', crash: `not a named status: ${status}`, ms };
    }
    return { ...base, status, reason: status === 'completed' ? (finalAnswer ?? '') : (reason ?? ''), ms };
  } catch (error) {
    const crash = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return {
      ...base,
      status: 'crash',
      reason: crash.split('\n')[0] ?? '',
      crash,
      ms: performance.now() - started,
    };
  } finally {
    for (const [behaviour, count] of model.tally)
      behaviours.set(behaviour, (behaviours.get(behaviour) ?? 0) + count);
    await runtime?.close().catch(() => {});
    await rm(root, { recursive: true, force: true }).catch(() => {});
  }
}

/** A reason reduced to its kind (numbers and quoted parts dropped), to group episodes by it. */
function reasonKind(reason: string): string {
  return reason
    .replace(/`[^`]*`|"[^"]*"|\([^)]*\)/g, '…')
    .replace(/\d+/g, 'N')
    .replace(/\s+/g, ' ')
    .slice(0, 90);
}

/** The report: episodes by status and reason, then the behaviours the model showed. */
export function renderReport(summary: ChaosSummary): string {
  const groups = new Map<string, number>();
  for (const result of summary.episodes) {
    const key = `${result.status}\t${result.status === 'completed' ? '(an answer)' : reasonKind(result.reason)}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const rows = [...groups.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => [...key.split('\t'), String(count)]);
  const statusTable = renderTable({
    columns: [{ header: 'status' }, { header: 'reason' }, { header: 'episodes', align: 'right' }],
    rows,
  });
  const behaviourRows = [...summary.behaviours.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([behaviour, count]) => [behaviour, String(count)]);
  const behaviourTable = renderTable({
    columns: [{ header: 'model behaviour' }, { header: 'calls', align: 'right' }],
    rows: behaviourRows,
  });
  const crashes = summary.episodes.filter((result) => result.crash || result.hang);
  const details = crashes.map(
    (result) => `episode ${result.episode} (${result.setting}): ${result.crash ?? result.reason}`,
  );
  return [statusTable, '', behaviourTable, ...(details.length > 0 ? ['', ...details] : [])].join('\n');
}

/** The one summary line; PASS when every target is met. */
export function summaryLine(summary: ChaosSummary, seed: number): string {
  const byStatus = new Map<string, number>();
  for (const result of summary.episodes) byStatus.set(result.status, (byStatus.get(result.status) ?? 0) + 1);
  const statuses = [...byStatus.entries()].map(([status, count]) => `${count} ${status}`).join(', ');
  const pass = passed(summary);
  return (
    `chaos: ${summary.episodes.length} episodes (seed ${seed}) in ${(summary.wallMs / 1000).toFixed(1)} s: ${statuses}; ` +
    `${summary.crashes} crashes, ${summary.hangs} hangs, ${summary.unhandledRejections} unhandled rejections, ` +
    `${summary.unexplained} without a reason — ${pass ? 'PASS' : 'FAIL'}`
  );
}

/** Whether the targets are met: no crash, hang, unhandled rejection or unexplained episode. */
export function passed(summary: ChaosSummary): boolean {
  return (
    summary.crashes === 0 &&
    summary.hangs === 0 &&
    summary.unhandledRejections === 0 &&
    summary.unexplained === 0
  );
}

function textArgument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

function argument(name: string, fallback: number): number {
  const value = Number(textArgument(name));
  return Number.isFinite(value) && textArgument(name) !== undefined ? value : fallback;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seed = argument('seed', 1);
  const summary = await runChaos({
    episodes: argument('episodes', 200),
    seed,
    concurrency: argument('concurrency', 4),
    watchdogMs: argument('watchdog-ms', DEFAULT_WATCHDOG_MS),
    dir: textArgument('dir'),
  });
  console.log(renderReport(summary));
  console.log(summaryLine(summary, seed));
  process.exitCode = passed(summary) ? 0 : 1;
}
