/**
 * Machines of a taskweave cluster as real processes, for the cluster test and bench:cluster: one
 * bare git remote per repository, one PostgreSQL schema of its own, and workers that each stand
 * for a machine (`taskweave work --watch --store … --repo …` with a HOME and clones folder of
 * their own, nothing shared but the store and the remotes). Goals are 3-task plans answered by
 * the script model after a fixed latency; each task writes one file of its goal.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The CLI a user runs. */
export const CLI = path.join(ROOT, 'bin', 'taskweave.js');
/** The tasks of each goal's plan: a and b at once, c after both. */
export const PLAN_TASKS = ['a', 'b', 'c'] as const;

/** The token a goal's text carries, that its script turns match on (`when`). */
export function goalToken(index: number): string {
  return `[goal-${index}]`;
}

/** The file a task of a goal writes, and what it holds. */
export function taskFile(goal: number, task: string): { path: string; content: string } {
  return { path: `g${goal}-${task}.txt`, content: `goal ${goal} task ${task}\n` };
}

/** A script that answers every goal (0 … goals-1): its plan, one call per task, its final answer. */
export function clusterScript(goals: number, latencyMs: number) {
  const turns: unknown[] = [];
  for (let goal = 0; goal < goals; goal += 1) {
    const when = goalToken(goal);
    turns.push({
      when,
      text: 'Three parts.',
      toolCalls: [
        {
          name: 'plan_actions',
          args: {
            tasks: PLAN_TASKS.map((task) => ({
              id: task,
              title: `Write ${taskFile(goal, task).path}`,
              description: `write ${taskFile(goal, task).path}`,
              depends_on: task === 'c' ? ['a', 'b'] : [],
            })),
          },
        },
      ],
    });
    for (const task of PLAN_TASKS) {
      const file = taskFile(goal, task);
      turns.push({
        when,
        task,
        toolCalls: [
          { name: 'write_file', args: { path: file.path, content: file.content } },
          { name: 'task_completed', args: { summary: `wrote ${file.path}` } },
        ],
      });
    }
    turns.push({ when, text: 'Done.', toolCalls: [{ name: 'final_answer', args: { answer: 'Done.' } }] });
  }
  return { latencyMs, turns };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A bare remote with one commit (readme.txt), as a team's repository would be. */
export function bareRemote(root: string, name: string): string {
  const source = path.join(root, `${name}-source`);
  mkdirSync(source, { recursive: true });
  git(source, 'init', '-q', '-b', 'main');
  git(source, 'config', 'user.email', 'team@example.com');
  git(source, 'config', 'user.name', 'Team');
  writeFileSync(path.join(source, 'readme.txt'), `${name}\n`);
  git(source, 'add', '-A');
  git(source, 'commit', '-q', '-m', 'first');
  const bare = path.join(root, `${name}.git`);
  git(root, 'clone', '-q', '--bare', source, bare);
  return bare;
}

/** A PostgreSQL URL whose connections use a new schema of their own, and how to drop it. */
export async function clusterSchema(server: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `tw_cluster_${randomBytes(5).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(server);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

/** Options of a cluster: where it lives and what its workers run. */
export interface ClusterOptions {
  store: string;
  remotes: string[];
  script: string;
  root: string;
  /** TASKWEAVE_LEASE_MS of the workers. */
  leaseMs?: number;
}

/** One machine: its HOME (and clones folder in it) and the worker process running there now. */
export interface Machine {
  name: string;
  home: string;
  child?: ChildProcess;
  output: string;
  starts: number;
}

/** The environment of a machine's processes: its own HOME, the store, no user config of the host. */
export function machineEnv(home: string, options: ClusterOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    TASKWEAVE_STORE: options.store,
    TASKWEAVE_LEASE_MS: String(options.leaseMs ?? 4000),
    NO_COLOR: '1',
    GIT_AUTHOR_NAME: 'worker',
    GIT_AUTHOR_EMAIL: 'worker@example.com',
    GIT_COMMITTER_NAME: 'worker',
    GIT_COMMITTER_EMAIL: 'worker@example.com',
  };
}

/** A machine with a HOME of its own. */
export async function newMachine(name: string, options: ClusterOptions): Promise<Machine> {
  const home = await mkdtemp(path.join(options.root, `${name}-home-`));
  return { name, home, output: '', starts: 0 };
}

/** The arguments of a machine's worker: `work --repo …` for every repository. */
function workerArgs(machine: Machine, options: ClusterOptions): string[] {
  return [
    'work',
    '--yes',
    '--approval',
    'auto',
    '--sandbox',
    'off',
    '--model',
    `script:${options.script}`,
    '--cwd',
    machine.home,
    ...options.remotes.flatMap((remote) => ['--repo', remote]),
  ];
}

/** Where a machine runs its warm-up goal (warmMachine): a store and a remote of their own. */
export interface WarmUp {
  store: string;
  remote: string;
}

/**
 * Readies a machine as one that has run its worker before: `work` once clones the repositories
 * and runs one goal (its own, `goal`, on the warm-up's store and remote: nothing of the measured
 * store or remotes changes), as a worker's earlier life would have. Resolves with how long it
 * took.
 */
export async function warmMachine(
  machine: Machine,
  options: ClusterOptions,
  warmUp: WarmUp,
  goal: number,
): Promise<number> {
  const started = Date.now();
  const warmOptions = { ...options, store: warmUp.store };
  await submitGoal(machine, warmOptions, goal, warmUp.remote);
  const args = [...workerArgs(machine, options), '--repo', warmUp.remote];
  const result = await cliOnce(machine, warmOptions, args);
  if (result.code !== 0)
    throw new Error(`${machine.name}: the worker's first run failed (${result.code}): ${result.stderr}`);
  return Date.now() - started;
}

/** Starts the machine's worker: `taskweave work --watch --repo …` for every repository. */
export function startWorker(machine: Machine, options: ClusterOptions): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...workerArgs(machine, options), '--watch'], {
    env: machineEnv(machine.home, options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = path.join(machine.home, 'worker.log');
  const keep = (chunk: string) => {
    machine.output = (machine.output + chunk).slice(-20_000);
    appendFileSync(log, chunk);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  machine.child = child;
  machine.starts += 1;
  return child;
}

/** Kills a machine's worker (SIGKILL: the machine died) and waits until it is gone. */
export async function killWorker(machine: Machine, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const child = machine.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('close', resolve));
  child.kill(signal);
  await gone;
}

/** Runs the CLI once on a machine; its exit code and output. */
export function cliOnce(
  machine: Machine,
  options: ClusterOptions,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: machineEnv(machine.home, options),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Queues goal `index` in its repository's queue from a machine: `tasks add --repo` for even
 * goals, `run --repo --no-wait` for odd ones (both submit from any machine).
 */
export async function submitGoal(
  machine: Machine,
  options: ClusterOptions,
  index: number,
  remote: string,
): Promise<void> {
  const goal = `${goalToken(index)} write the three files of goal ${index}`;
  const args =
    index % 2 === 0
      ? ['tasks', 'add', '--cwd', machine.home, '--repo', remote, goal]
      : [
          'run',
          '--no-wait',
          '--approval',
          'auto',
          '--sandbox',
          'off',
          '--model',
          `script:${options.script}`,
          '--cwd',
          machine.home,
          '--repo',
          remote,
          goal,
        ];
  const result = await cliOnce(machine, options, args);
  const expected = index % 2 === 0 ? 0 : 5;
  if (result.code !== expected)
    throw new Error(`submitting goal ${index} exited ${result.code}: ${result.stderr}${result.stdout}`);
}

/** The goals' queue tasks as the store has them. */
export interface GoalRow {
  id: string;
  queue: string;
  title: string;
  status: string;
  attempts: number;
  sessionId: string | null;
  /** Why the queue says the goal failed, when it did. */
  failReason: string | null;
}

/** Reads the store: every repository queue task. */
export async function goalRows(store: string): Promise<GoalRow[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  try {
    const rows = await client.query(
      `SELECT id, queue, title, description, status, attempts, session_id, fail_reason FROM tasks WHERE queue LIKE 'repo:%' ORDER BY sequence`,
    );
    return rows.rows.map((row) => ({
      id: row.id,
      queue: row.queue,
      title: row.description || row.title,
      status: row.status,
      attempts: row.attempts,
      sessionId: row.session_id,
      failReason: row.fail_reason,
    }));
  } finally {
    await client.end();
  }
}

/** What the cluster did, checked against the store and the remotes. */
export interface ClusterAudit {
  goals: number;
  completedGoals: number;
  /** Goals not completed (pending, in progress, failed…): lost. */
  lostGoals: string[];
  /** Plan tasks completed more than once (task_completed logged twice for one task of a session). */
  completedTwice: string[];
  /** Plan tasks not completed. */
  planTasksNotCompleted: string[];
  /** Goal branches whose merge commits are not exactly one per task. */
  mergeCountWrong: string[];
  /** Goal branches whose files are not exactly readme.txt and the goal's three files with their contents. */
  contentWrong: string[];
  /** Goals whose queue task was claimed more than once (a worker died under it). */
  retried: number;
}

/** Checks every goal: completed once, each plan task completed once, its branch merged 3 times with exactly its files. */
export async function auditCluster(
  store: string,
  remotes: string[],
  goals: { index: number; remote: string }[],
): Promise<ClusterAudit> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  const audit: ClusterAudit = {
    goals: goals.length,
    completedGoals: 0,
    lostGoals: [],
    completedTwice: [],
    planTasksNotCompleted: [],
    mergeCountWrong: [],
    contentWrong: [],
    retried: 0,
  };
  try {
    const rows = await goalRows(store);
    for (const goal of goals) {
      const token = goalToken(goal.index);
      const row = rows.find((candidate) => candidate.title.startsWith(token));
      if (row?.status !== 'completed' || row.sessionId === null) {
        audit.lostGoals.push(
          `${token} ${row?.status ?? 'missing'}${row ? ` after ${row.attempts} claims` : ''}${row?.failReason ? `: ${row.failReason}` : ''}`,
        );
        continue;
      }
      audit.completedGoals += 1;
      if (row.attempts > 1) audit.retried += 1;
      const plans = await client.query('SELECT id FROM plans WHERE session_id = $1 ORDER BY created_at', [
        row.sessionId,
      ]);
      const planId: string | undefined = plans.rows.at(-1)?.id;
      if (!planId) {
        audit.lostGoals.push(`${token} has no plan`);
        continue;
      }
      const planTasks = await client.query('SELECT key, status FROM tasks WHERE plan_id = $1', [planId]);
      for (const task of planTasks.rows)
        if (task.status !== 'completed')
          audit.planTasksNotCompleted.push(`${token} ${task.key} ${task.status}`);
      const completions = await client.query(
        `SELECT payload FROM events WHERE session_id = $1 AND update_type = 'task_completed'`,
        [row.sessionId],
      );
      const counts = new Map<string, number>();
      for (const event of completions.rows) {
        const taskId = (JSON.parse(event.payload) as { task_id?: string }).task_id ?? '?';
        counts.set(taskId, (counts.get(taskId) ?? 0) + 1);
      }
      for (const [taskId, count] of counts)
        if (count > 1) audit.completedTwice.push(`${token} ${taskId} ×${count}`);
      const remote = goal.remote;
      const branch = `refs/heads/taskweave/${planId}`;
      let merges: string[] = [];
      let files: string[] = [];
      try {
        merges = git(remote, 'rev-list', '--merges', branch).trim().split('\n').filter(Boolean);
        files = git(remote, 'ls-tree', '--name-only', branch).trim().split('\n').filter(Boolean).sort();
      } catch {
        audit.mergeCountWrong.push(`${token} has no branch ${branch}`);
        continue;
      }
      if (merges.length !== PLAN_TASKS.length) audit.mergeCountWrong.push(`${token} ${merges.length} merges`);
      const expected = ['readme.txt', ...PLAN_TASKS.map((task) => taskFile(goal.index, task).path)].sort();
      const contentsRight = PLAN_TASKS.every((task) => {
        const file = taskFile(goal.index, task);
        try {
          return git(remote, 'show', `${branch}:${file.path}`) === file.content;
        } catch {
          return false;
        }
      });
      if (JSON.stringify(files) !== JSON.stringify(expected) || !contentsRight)
        audit.contentWrong.push(`${token}: ${files.join(' ')}`);
    }
    void remotes;
    return audit;
  } finally {
    await client.end();
  }
}

/** Waits until every goal's queue task has ended (or the deadline passed); the rows. */
export async function waitForGoals(
  store: string,
  count: number,
  options: { deadline: number; onTick?: (rows: GoalRow[]) => Promise<void> | void },
): Promise<GoalRow[]> {
  for (;;) {
    const rows = await goalRows(store);
    const ended = rows.filter((row) => !['pending', 'in_progress'].includes(row.status));
    if (rows.length >= count && ended.length === rows.length) return rows;
    if (Date.now() > options.deadline) return rows;
    await options.onTick?.(rows);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A fresh folder for a cluster. */
export function clusterRoot(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'taskweave-cluster-'));
}

/** How a cluster run went. */
export interface ClusterRun {
  audit: ClusterAudit;
  /** From the workers' start to the last goal's end. */
  wallMs: number;
  kills: number;
  /** Goals per minute over wallMs. */
  goalsPerMinute: number;
  /** What each worker printed last (for a failure's message). */
  outputs: string[];
  timedOut: boolean;
  /** CPU time of the workers running at the end and the processes they ran (git), in ms (Linux). */
  cpuMs: number;
  /** With `warm`: the longest of the machines' first runs of the worker (clone, compile), in ms. */
  warmMs?: number;
}

/** A process's CPU time with its reaped children's, and its living children's likewise, in ms; 0 when unknown (Linux /proc). */
function cpuOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime: fields 14-17 of the line, 12-15 after the name.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
    return ticks * 10 + childrenOf(pid).reduce((sum, child) => sum + cpuOf(child), 0);
  } catch {
    return 0;
  }
}

/** The living children of a process (their parent pid in /proc/<pid>/stat). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent)
        children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/**
 * Runs a cluster: `repositories` bare remotes, `goals` goals spread over them (submitted from the
 * machines in turn, before the workers start), `workers` machines working every repository; with
 * `kills`, a random worker that has run at least a second is killed with SIGKILL every
 * `killEveryMs` and started again at once (same HOME and clones: the machine restarted), until
 * that many kills were made or every goal ended. Audits the store and the remotes at the end.
 */
export async function runCluster(options: {
  store: string;
  goals: number;
  repositories: number;
  workers: number;
  latencyMs: number;
  kills?: number;
  killEveryMs?: number;
  leaseMs?: number;
  timeoutMs: number;
  /** Called with the cluster once the workers run (bench:cluster streams one of them). */
  whileRunning?: (cluster: { machines: Machine[]; options: ClusterOptions }) => Promise<void>;
  /** Called once the goals are queued, before the workers start (not part of the timed run). */
  beforeWorkers?: (cluster: { machines: Machine[]; options: ClusterOptions }) => Promise<void>;
  /** Called when every goal ended (before whileRunning is awaited). */
  onEnd?: () => void;
  /**
   * Ready every machine as one that has run its worker before (warmMachine: clones in place, a
   * goal run) before the goals are queued and the workers
   * start; the warm-up goals go to this store (not the measured one).
   */
  warmStore?: string;
}): Promise<ClusterRun> {
  const root = await clusterRoot();
  const remotes = Array.from({ length: options.repositories }, (_, index) =>
    bareRemote(root, `repo${index}`),
  );
  const script = path.join(root, 'script.json');
  // The measured goals, then one warm-up goal a machine.
  const warmGoals = options.warmStore === undefined ? 0 : Math.max(1, options.workers);
  writeFileSync(script, JSON.stringify(clusterScript(options.goals + warmGoals, options.latencyMs)));
  const cluster: ClusterOptions = { store: options.store, remotes, script, root, leaseMs: options.leaseMs };
  const machines: Machine[] = [];
  for (let index = 0; index < Math.max(1, options.workers); index += 1)
    machines.push(await newMachine(`machine${index + 1}`, cluster));
  const warmStore = options.warmStore;
  // A remote each: one queue runs one goal at a time, and a machine whose worker found the
  // queue busy would have run no goal of its own.
  const warmMs =
    warmStore === undefined
      ? undefined
      : Math.max(
          ...(await Promise.all(
            machines.map((machine, index) =>
              warmMachine(
                machine,
                cluster,
                { store: warmStore, remote: bareRemote(root, `warm${index}`) },
                options.goals + index,
              ),
            ),
          )),
        );
  const goals = Array.from({ length: options.goals }, (_, index) => ({
    index,
    remote: remotes[index % remotes.length] ?? '',
  }));
  // Submitted from every machine in turn, a few at once.
  for (let start = 0; start < goals.length; start += 6)
    await Promise.all(
      goals
        .slice(start, start + 6)
        .map((goal) => submitGoal(machines[goal.index % machines.length]!, cluster, goal.index, goal.remote)),
    );
  await options.beforeWorkers?.({ machines, options: cluster });
  const startedAt = Date.now();
  for (const machine of machines.slice(0, options.workers)) startWorker(machine, cluster);
  const since = new Map<Machine, number>(machines.map((machine) => [machine, Date.now()]));
  let kills = 0;
  let lastKill = Date.now();
  const watching = options.whileRunning?.({ machines, options: cluster });
  const rows = await waitForGoals(options.store, options.goals, {
    deadline: startedAt + options.timeoutMs,
    onTick: async () => {
      if (kills >= (options.kills ?? 0) || Date.now() - lastKill < (options.killEveryMs ?? 1500)) return;
      const candidates = machines.filter(
        (machine) => machine.child && Date.now() - (since.get(machine) ?? 0) >= 1000,
      );
      const victim = candidates[Math.floor(Math.random() * candidates.length)];
      if (!victim) return;
      await killWorker(victim);
      kills += 1;
      lastKill = Date.now();
      startWorker(victim, cluster);
      since.set(victim, Date.now());
    },
  });
  const wallMs = Date.now() - startedAt;
  options.onEnd?.();
  await watching;
  const ended = rows.filter((row) => !['pending', 'in_progress'].includes(row.status)).length;
  const cpuMs = machines.reduce((sum, machine) => sum + cpuOf(machine.child?.pid), 0);
  for (const machine of machines) await killWorker(machine, 'SIGTERM');
  const audit = await auditCluster(options.store, remotes, goals);
  const clean =
    ended === options.goals &&
    [
      audit.lostGoals,
      audit.completedTwice,
      audit.planTasksNotCompleted,
      audit.mergeCountWrong,
      audit.contentWrong,
    ].every((list) => list.length === 0);
  // The remotes, clones and worker logs stay for a look when something went wrong.
  if (clean) await rm(root, { recursive: true, force: true });
  return {
    audit,
    wallMs,
    kills,
    goalsPerMinute: (ended / wallMs) * 60_000,
    cpuMs,
    warmMs,
    outputs: [
      ...lostGoalLogs(machines, audit.lostGoals),
      ...machines.map(
        (machine) => `--- ${machine.name} (${machine.starts} starts)\n${machine.output.slice(-3000)}`,
      ),
    ],
    timedOut: ended < options.goals,
  };
}

/**
 * What the workers printed while running each lost goal: from every line naming the goal's token
 * to the next goal a worker took up (at most 80 lines a run), from every machine's whole log, so a
 * failure early in a long cluster run still says why.
 */
function lostGoalLogs(machines: Machine[], lost: string[]): string[] {
  const said: string[] = [];
  for (const entry of lost) {
    const token = entry.split(' ')[0] ?? entry;
    for (const machine of machines) {
      let lines: string[];
      try {
        lines = readFileSync(path.join(machine.home, 'worker.log'), 'utf8').split('\n');
      } catch {
        continue;
      }
      lines.forEach((line, at) => {
        if (!line.includes(`${token} `)) return;
        const next = lines.findIndex((other, index) => index > at && other.startsWith('▶ task '));
        const run = lines.slice(at, next === -1 ? at + 80 : Math.min(next, at + 80));
        said.push(`--- ${machine.name}, ${token}\n${run.join('\n')}`);
      });
    }
  }
  return said;
}
