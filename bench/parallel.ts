/**
 * Parallel plan execution: does the scheduler get the speedup the graph allows, and how fast
 * does it start a task once its dependencies are done?
 *
 * Each task sleeps a fixed latency. For each plan shape it measures the wall time with the
 * scheduler (concurrency = the widest layer) and one task after another, compares both to the
 * ideal (critical path × latency) and reports the dispatch delays the scheduler recorded.
 *
 * Run: npx tsx bench/parallel.ts   (exit code 1 when a target is missed)
 */
import { PlanScheduler } from '../src/plan/scheduler.js';
import { type PlanTask, type TaskGraph, validatePlan } from '../src/plan/task-graph.js';

const TASK_LATENCY_MS = 50;
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

async function runParallel(
  graph: TaskGraph,
  concurrency: number,
): Promise<{ wallMs: number; delays: number[] }> {
  const scheduler = new PlanScheduler({
    graph,
    concurrency,
    runTask: async (_task, signal) => {
      await sleep(TASK_LATENCY_MS, signal);
      return { status: 'completed', summary: 'slept' };
    },
    onFailure: async ({ task: failed, reason }) => {
      throw new Error(`bench task ${failed.id} failed: ${reason}`);
    },
  });
  const started = performance.now();
  const result = await scheduler.run();
  const wallMs = performance.now() - started;
  if (result.status !== 'completed') throw new Error(`the scheduler ended with status ${result.status}`);
  return { wallMs, delays: [...scheduler.dispatchDelaysMs] };
}

async function runSerial(graph: TaskGraph): Promise<number> {
  const started = performance.now();
  for (const _id of graph.layers().flat()) await sleep(TASK_LATENCY_MS);
  return performance.now() - started;
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
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const run = await runParallel(graph, width);
    parallel.push(run.wallMs);
    delays.push(...run.delays);
    serial.push(await runSerial(graph));
  }
  const parallelMs = median(parallel);
  const serialMs = median(serial);
  const idealMs = graph.criticalPathLength() * TASK_LATENCY_MS;
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
    row.dispatchP50.toFixed(3),
    row.dispatchP99.toFixed(3),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  );
  const format = (line: string[]) =>
    line
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  console.log(
    `Plan scheduler, ${TASK_LATENCY_MS} ms per task, median of ${REPETITIONS} runs; dispatch delay = dependency done → dependent started`,
  );
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of cells) console.log(format(line));
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
