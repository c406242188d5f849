/**
 * Crash safety under random `kill -9`: nothing lost, nothing done twice, nothing corrupt.
 *
 * Each episode is a fresh workspace and one goal planned as 3–6 tasks (a chain or a fan-out; see
 * crash/goal-script.ts), started with `taskweave run` or queued with `tasks add` and worked by
 * `taskweave work`. The process working it is killed with SIGKILL at a random point (after a
 * random number of its events, or after a random time), 1 to 3 times per episode, the later
 * kills hitting `resume` or `work` as they continue it. Then `resume` and `work` run to
 * completion, and the episode is checked: tasks lost, tasks completed twice (and plans made
 * again), side effects doubled (each task appends one line to log.txt), half-written files,
 * temporary files left, commands left running, and the database's `PRAGMA integrity_check`.
 * Everything is real: the built CLI as child processes, SQLite files, commands in bubblewrap.
 * The only fake is the model (the script model).
 *
 * Run: npm run build && npx tsx bench/crash.ts --kills 100 [--seed 1] [--keep: keep failing workspaces]
 * (exit code 1 when a target is missed: every figure but the kills must be 0)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTable } from '../src/cli/render/table.js';
import { checkEpisode, type EpisodeFindings } from './crash/check.js';
import { crashGoal } from './crash/goal-script.js';
import { Random } from './crash/random.js';

const CLI_PATH = fileURLToPath(new URL('../bin/taskweave.js', import.meta.url));
const MAX_KILLS_PER_EPISODE = 3;
/** Runs of resume / work after the kills before an episode counts as stuck. */
const MAX_FINISHING_RUNS = 6;
/** A process not done after this long is killed and reported as hung. */
const PROCESS_TIMEOUT_MS = 60_000;
/** A kill by time lands within this long after the start (startup included). */
const MAX_KILL_DELAY_MS = 4_000;

type Target = 'run' | 'work' | 'resume';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const KILLS = option('--kills', 100);
const SEED = option('--seed', 1);
const KEEP = process.argv.includes('--keep');

interface ProcessEnd {
  killed: boolean;
  hung: boolean;
  code: number | null;
  stdout: string;
}

/** Runs the CLI; with `killAfter`, kills it with SIGKILL after that many event lines, or that many ms. */
function cli(args: string[], killAfter?: { events: number } | { ms: number }): Promise<ProcessEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_RETRY_BASE_MS: '10' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let killed = false;
    let hung = false;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!killed && killAfter && 'events' in killAfter && stdout.split('\n').length > killAfter.events)
        kill();
    });
    child.stderr.resume();
    const timer = killAfter && 'ms' in killAfter ? setTimeout(kill, killAfter.ms) : undefined;
    const watchdog = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, PROCESS_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(watchdog);
      resolve({ killed: killed && signal === 'SIGKILL', hung, code, stdout });
    });
  });
}

interface Tally extends EpisodeFindings {
  kills: number;
  episodes: number;
  hung: number;
  stuck: number;
}

const emptyTally = (): Tally => ({
  kills: 0,
  episodes: 0,
  hung: 0,
  stuck: 0,
  lost: 0,
  completedTwice: 0,
  doubled: 0,
  halfWritten: 0,
  tempLeft: 0,
  commandsLeft: 0,
  corrupt: 0,
  notStarted: 0,
});

/** One episode: returns the kills it made (by target), what it left, and whether it finished. */
async function episode(random: Random, budget: number) {
  const workspace = await realpath(await mkdtemp(path.join(tmpdir(), 'taskweave-crash-bench-')));
  const goal = crashGoal(random);
  const script = path.join(workspace, '..', `${path.basename(workspace)}.script.json`);
  await writeFile(script, JSON.stringify(goal.script));
  const common = [
    '--approval',
    'auto',
    '--model',
    `script:${script}`,
    '--cwd',
    workspace,
    '--plan',
    'always',
    '--yes',
  ];
  const queued = random.chance(0.5);
  if (queued) await cli(['tasks', 'add', '--cwd', workspace, 'Do the steps']);
  const kills: Target[] = [];
  let hung = 0;
  const wanted = Math.min(budget, random.int(1, MAX_KILLS_PER_EPISODE));
  let target: Target = queued ? 'work' : 'run';
  for (let attempt = 0; kills.length < wanted && attempt < wanted * 3; attempt += 1) {
    const args =
      target === 'run' ? ['run', ...common, '--json', 'Do the steps'] : [target, ...common, '--json'];
    const killAfter = random.chance(0.7)
      ? { events: random.int(1, 60) }
      : { ms: random.int(100, MAX_KILL_DELAY_MS) };
    const end = await cli(args, killAfter);
    if (end.hung) hung += 1;
    if (end.killed) kills.push(target);
    else if (target === 'run') break; // it finished before the kill: nothing left to continue
    target = random.chance(0.6) ? 'resume' : 'work';
  }
  // To completion: resume until nothing is left to resume, then a worker until the queue is empty.
  let finished = false;
  for (let run = 0; run < MAX_FINISHING_RUNS && !finished; run += 1) {
    const resumed = await cli(['resume', ...common]);
    if (resumed.hung) hung += 1;
    if (!resumed.stdout.includes('Nothing to resume')) continue;
    const worked = await cli(['work', ...common]);
    if (worked.hung) hung += 1;
    finished = worked.stdout.includes('The queue is empty');
  }
  const findings = await checkEpisode(workspace, goal.taskIds);
  const remove = async () => {
    await rm(workspace, { recursive: true, force: true });
    await rm(script, { force: true });
  };
  return { kills, findings, hung, stuck: finished ? 0 : 1, workspace, remove };
}

async function main(): Promise<number> {
  const random = new Random(SEED);
  const byTarget = new Map<Target, Tally>(
    (['run', 'work', 'resume'] as Target[]).map((t) => [t, emptyTally()]),
  );
  const total = emptyTally();
  const started = performance.now();
  while (total.kills < KILLS) {
    const result = await episode(random, KILLS - total.kills);
    total.episodes += 1;
    total.hung += result.hung;
    total.stuck += result.stuck;
    for (const key of Object.keys(result.findings) as (keyof EpisodeFindings)[])
      total[key] += result.findings[key];
    // An episode's findings count against the target its first kill hit.
    const first = result.kills[0];
    for (const target of result.kills) (byTarget.get(target) as Tally).kills += 1;
    if (first) {
      const tally = byTarget.get(first) as Tally;
      tally.episodes += 1;
      tally.hung += result.hung;
      tally.stuck += result.stuck;
      for (const key of Object.keys(result.findings) as (keyof EpisodeFindings)[])
        tally[key] += result.findings[key];
    }
    total.kills += result.kills.length;
    const { notStarted: _notStarted, ...counted } = result.findings;
    const bad = Object.values(counted).some((value) => value > 0) || result.stuck > 0 || result.hung > 0;
    if (!(KEEP && bad)) await result.remove();
    if (bad)
      console.error(
        `episode ${total.episodes}: ${JSON.stringify(result.findings)}${KEEP ? ` in ${result.workspace}` : ''}`,
      );
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const row = (name: string, tally: Tally) => [
    name,
    String(tally.kills),
    String(tally.episodes),
    String(tally.lost),
    String(tally.completedTwice),
    String(tally.doubled),
    String(tally.halfWritten),
    String(tally.tempLeft),
    String(tally.commandsLeft),
    String(tally.corrupt),
    String(tally.hung + tally.stuck),
    String(tally.notStarted),
  ];
  const right = { align: 'right' as const };
  process.stdout.write(
    renderTable({
      columns: [
        { header: 'first kill hit' },
        { header: 'kills', ...right },
        { header: 'episodes', ...right },
        { header: 'lost', ...right },
        { header: 'done twice', ...right },
        { header: 'doubled', ...right },
        { header: 'half-written', ...right },
        { header: 'temp left', ...right },
        { header: 'cmds left', ...right },
        { header: 'corrupt', ...right },
        { header: 'hung/stuck', ...right },
        { header: 'not started', ...right },
      ],
      rows: [...[...byTarget].map(([name, tally]) => row(name, tally)), row('total', total)],
    }),
  );
  const failures =
    total.lost +
    total.completedTwice +
    total.doubled +
    total.halfWritten +
    total.tempLeft +
    total.commandsLeft +
    total.corrupt +
    total.hung +
    total.stuck;
  console.log(
    `crash: ${total.kills} kills in ${total.episodes} episodes (seed ${SEED}, ${seconds} s): ${total.lost} tasks lost, ${total.completedTwice} completed twice, ${total.doubled} side effects doubled, ${total.halfWritten} half-written files, ${total.tempLeft} temp files left, ${total.commandsLeft} commands left running, ${total.corrupt} corrupt databases, ${total.hung + total.stuck} hung or stuck (${total.notStarted} killed before the goal was stored) — ${failures === 0 ? 'PASS' : 'FAIL'}`,
  );
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
