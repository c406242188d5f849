/**
 * Parallel plan execution: does the scheduler get the speedup the graph allows, and how fast
 * does it start a task once its dependencies are done?
 *
 * The whole agent runs each plan: the script model (with a fixed reply latency per task) plans,
 * the orchestrator runs the tasks, each closing with task_completed after its latency. For each
 * shape it measures, from the task events, the wall time with concurrency = the widest layer and
 * with concurrency 1 (one task after another), compares both to the ideal (the critical path,
 * each task taking its serial time) and reports the delay from a dependency completing to its
 * dependent starting.
 *
 * Run: npx tsx bench/parallel.ts   (exit code 1 when a target is missed)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionApprovals } from '../src/agent/approval/session-approvals.js';
import { RunControl } from '../src/agent/control.js';
import { Journal } from '../src/agent/journal.js';
import { runAgent } from '../src/agent/run-agent.js';
import { renderTable } from '../src/cli/table.js';
import { EventBus } from '../src/events/bus.js';
import { ScriptModel } from '../src/model/script-model.js';
import type { ModelScriptInput } from '../src/model/script-schema.js';
import { type PlanTask, type TaskGraph, validatePlan } from '../src/plan/task-graph.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import { Workspace } from '../src/tools/workspace.js';

/**
 * The script model's reply latency for each task's turn. Real model calls take seconds; 250 ms
 * keeps the benchmark short while the orchestration overhead (shown in its own column) stays
 * visible next to it.
 */
const TASK_LATENCY_MS = 250;
const REPETITIONS = 3;
/** The scheduler's wall time may exceed the ideal by at most ~11 %. */
const MIN_RATIO_TO_IDEAL = 0.9;
const MAX_DISPATCH_P99_MS = 5;

interface Shape {
  name: string;
  tasks: PlanTask[];
}

function task(id: string, dependsOn: string[] = []): PlanTask {
  return { id, title: id, description: `bench task ${id}`, depends_on: dependsOn };
}

function fanOut(width: number): Shape {
  const leaves = Array.from({ length: width }, (_, index) => task(`leaf${index + 1}`, ['root']));
  return { name: `fan-out ${width}`, tasks: [task('root'), ...leaves] };
}

function chain(length: number): Shape {
  const tasks = Array.from({ length }, (_, index) =>
    task(`step${index + 1}`, index === 0 ? [] : [`step${index}`]),
  );
  return { name: `chain ${length}`, tasks };
}

const SHAPES: Shape[] = [
  fanOut(2),
  fanOut(5),
  fanOut(10),
  { name: 'diamond', tasks: [task('a'), task('b', ['a']), task('c', ['a']), task('d', ['b', 'c'])] },
  chain(5),
];

/** Runs the plan through the whole agent (script model, orchestrator, tools) and reads the events. */
async function runAgentPlan(
  shape: Shape,
  graph: TaskGraph,
  concurrency: number,
): Promise<{ wallMs: number; delays: number[] }> {
  const planned = shape.tasks.map(({ id, title, description, depends_on }) => ({
    id,
    title,
    description,
    depends_on: [...depends_on],
  }));
  // Each task is one model turn (with the injected latency) that closes the task: what is
  // measured is the orchestration, not the tools.
  const turns: ModelScriptInput['turns'] = [
    { toolCalls: [{ name: 'plan_actions', args: { tasks: planned } }], latencyMs: 0 },
    ...planned.map((task) => ({
      task: task.id,
      toolCalls: [{ name: 'task_completed', args: { summary: `finished ${task.id}` } }],
    })),
    { toolCalls: [{ name: 'final_answer', args: { answer: 'done' } }], latencyMs: 0 },
  ];
  const model = { id: 'script:bench', model: ScriptModel.fromScript({ latencyMs: TASK_LATENCY_MS, turns }) };
  const workspace = await Workspace.open(await mkdtemp(path.join(tmpdir(), 'taskweave-bench-')));
  // A run always has a store: an in-memory SQLite one here (no fsync; the CLI's file store is
  // measured by bench:store).
  const store = openSqliteStore({ path: ':memory:' });
  const sessionId = (
    await store.sessions.createSession({
      title: 'bench',
      goal: 'bench',
      workspace: workspace.root,
      model: 'script',
    })
  ).id;
  const bus = new EventBus();
  const journal = new Journal({
    sessionId,
    log: store.sessions,
    bus,
    now: () => performance.timeOrigin + performance.now(),
  });
  const started = new Map<string, number>();
  const completed = new Map<string, number>();
  bus.subscribe((event) => {
    if (event.type !== 'agent_update') return;
    if (event.update_type === 'task_started') started.set(event.task_id, event.ts);
    if (event.update_type === 'task_completed') completed.set(event.task_id, event.ts);
  });
  const result = await runAgent({
    goal: `bench ${shape.name}`,
    model,
    workspace,
    journal,
    store,
    control: new RunControl({ policy: { input: 'nobody', plan: 'approve', failure: 'abort' } }),
    // The bench's tasks only write files: every call runs, as with --approval auto.
    safety: {
      approval: { mode: 'auto', allow: [], deny: [] },
      remembered: new SessionApprovals(),
      sandbox: { kind: 'none' },
      sandboxMissing: false,
      sandboxLabel: 'off',
    },
    concurrency,
  });
  await store.close();
  await rm(workspace.root, { recursive: true, force: true });
  if (result.status !== 'completed')
    throw new Error(`${shape.name}: the run ended ${result.status}: ${result.reason}`);
  const wallMs = Math.max(...completed.values()) - Math.min(...started.values());
  const delays: number[] = [];
  for (const task of graph.tasks) {
    const dependencies = graph.dependenciesOf(task.id);
    if (dependencies.length === 0) continue;
    const ready = Math.max(...dependencies.map((id) => completed.get(id) ?? Number.NaN));
    delays.push((started.get(task.id) ?? Number.NaN) - ready);
  }
  return { wallMs, delays };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Row {
  shape: string;
  tasks: number;
  width: number;
  parallelMs: number;
  serialMs: number;
  idealMs: number;
  speedup: number;
  ratioToIdeal: number;
  dispatchP50: number;
  dispatchP99: number;
}

async function measure(shape: Shape): Promise<Row> {
  const validation = validatePlan(shape.tasks);
  if (!validation.ok) throw new Error(`${shape.name}: ${validation.errors.join('; ')}`);
  const graph = validation.graph;
  const width = Math.max(...graph.layers().map((layer) => layer.length));
  const parallel: number[] = [];
  const serial: number[] = [];
  const delays: number[] = [];
  await runAgentPlan(shape, graph, width); // warm-up: the first run pays for JIT compilation
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const run = await runAgentPlan(shape, graph, width);
    parallel.push(run.wallMs);
    delays.push(...run.delays);
    serial.push((await runAgentPlan(shape, graph, 1)).wallMs);
  }
  const parallelMs = median(parallel);
  const serialMs = median(serial);
  // The ideal: the critical path, each task taking what one task takes when they run one by one.
  const idealMs = graph.criticalPathLength() * (serialMs / graph.tasks.length);
  return {
    shape: shape.name,
    tasks: graph.tasks.length,
    width,
    parallelMs,
    serialMs,
    idealMs,
    speedup: serialMs / parallelMs,
    ratioToIdeal: idealMs / parallelMs,
    dispatchP50: percentile(delays, 50),
    dispatchP99: percentile(delays, 99),
  };
}

function printTable(rows: Row[]): void {
  const header = [
    'shape',
    'tasks',
    'width',
    'parallel ms',
    'serial ms',
    'ideal ms',
    'speedup',
    'vs ideal',
    'overhead ms',
    'p50 ms',
    'p99 ms',
  ];
  const cells = rows.map((row) => [
    row.shape,
    String(row.tasks),
    String(row.width),
    row.parallelMs.toFixed(1),
    row.serialMs.toFixed(1),
    row.idealMs.toFixed(0),
    `${row.speedup.toFixed(2)}×`,
    row.ratioToIdeal.toFixed(3),
    (row.parallelMs - row.idealMs).toFixed(1),
    row.dispatchP50.toFixed(3),
    row.dispatchP99.toFixed(3),
  ]);
  console.log(
    `Whole agent (script model), ${TASK_LATENCY_MS} ms model latency per task, median of ${REPETITIONS} runs; dispatch delay = dependency done → dependent started`,
  );
  process.stdout.write(
    renderTable({
      columns: header.map((title, index) => ({ header: title, align: index === 0 ? 'left' : 'right' })),
      rows: cells,
    }),
  );
}

const rows: Row[] = [];
for (const shape of SHAPES) rows.push(await measure(shape));
printTable(rows);

const worstRatio = Math.min(...rows.map((row) => row.ratioToIdeal));
const worstP99 = Math.max(...rows.map((row) => row.dispatchP99));
const pass = worstRatio >= MIN_RATIO_TO_IDEAL && worstP99 < MAX_DISPATCH_P99_MS;
console.log(
  `parallel: worst speedup ratio vs ideal ${worstRatio.toFixed(2)} (target ≥ ${MIN_RATIO_TO_IDEAL.toFixed(2)}), ` +
    `dispatch p99 ${worstP99.toFixed(2)} ms (target < ${MAX_DISPATCH_P99_MS} ms) — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
