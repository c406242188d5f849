/**
 * Store throughput on a real file: events appended per second, and task round-trips per second
 * (add → claimNext → complete, each its own transaction as the worker does it), in WAL mode with
 * synchronous=NORMAL and synchronous=FULL. The targets apply to FULL, the default.
 *
 * Each measurement runs for a fixed time on a fresh database after a short warm-up; the table
 * shows the median of REPETITIONS runs.
 *
 * Run: npx tsx bench/store.ts   (exit code 1 when a target is missed)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerEvent } from '../src/events/registry.js';
import { openDatabase, type Synchronous, type TaskweaveDb } from '../src/store/database.js';
import { SessionStore } from '../src/store/session-store.js';
import { TaskStore } from '../src/store/task-store.js';

const MEASURE_MS = 1_500;
const WARM_UP_OPERATIONS = 200;
const REPETITIONS = 3;
const LEASE_MS = 60_000;
const MIN_EVENTS_PER_SECOND = 5_000;
const MIN_ROUND_TRIPS_PER_SECOND = 2_000;
const MODES: Synchronous[] = ['NORMAL', 'FULL'];

/** A tool result of a typical size: most of the log is tool output. */
const TOOL_OUTPUT = 'src/index.ts:12: export function main() {\n'.repeat(8);

function withDatabase<T>(synchronous: Synchronous, work: (db: TaskweaveDb) => T): T {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-store-'));
  const db = openDatabase({ path: path.join(folder, 'taskweave.db'), synchronous });
  try {
    return work(db);
  } finally {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Calls `operation` (with a running counter) for MEASURE_MS; returns operations per second. */
function rate(operation: (index: number) => void): number {
  for (let index = 0; index < WARM_UP_OPERATIONS; index++) operation(index);
  let count = 0;
  const started = performance.now();
  const deadline = started + MEASURE_MS;
  let now = started;
  while (now < deadline) {
    operation(WARM_UP_OPERATIONS + count);
    count++;
    now = performance.now();
  }
  return (count / (now - started)) * 1000;
}

function eventsPerSecond(synchronous: Synchronous): number {
  return withDatabase(synchronous, (db) => {
    const store = new SessionStore(db);
    const session = store.createSession({
      title: 'bench',
      goal: 'bench',
      workspace: '/bench',
      model: 'script:bench',
    });
    return rate((index) => {
      const event: ServerEvent = {
        type: 'tool_complete',
        call_id: `call_${index}`,
        name: 'search_code',
        result: TOOL_OUTPUT,
        duration_ms: 3,
        session_id: session.id,
        run_id: 'run_bench',
        seq: index + 1,
        ts: Date.now(),
      };
      store.appendEvent(event);
    });
  });
}

function roundTripsPerSecond(synchronous: Synchronous): number {
  return withDatabase(synchronous, (db) => {
    const store = new TaskStore(db);
    return rate((index) => {
      store.add({ title: `task ${index}`, description: 'write src/index.ts with a main function' });
      const task = store.claimNext({ queue: 'default', owner: 'bench', leaseMs: LEASE_MS });
      if (task === undefined) throw new Error('claimNext returned nothing for a queue with a pending task');
      store.complete(task.id, 'wrote it', { owner: 'bench' });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Row {
  synchronous: Synchronous;
  events: number;
  roundTrips: number;
}

const rows: Row[] = MODES.map((synchronous) => ({
  synchronous,
  events: median(Array.from({ length: REPETITIONS }, () => eventsPerSecond(synchronous))),
  roundTrips: median(Array.from({ length: REPETITIONS }, () => roundTripsPerSecond(synchronous))),
}));

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const header = ['synchronous', 'events/s', 'µs/event', 'round-trips/s', 'µs/round-trip'];
const cells = rows.map((row) => [
  row.synchronous,
  number(row.events),
  (1e6 / row.events).toFixed(0),
  number(row.roundTrips),
  (1e6 / row.roundTrips).toFixed(0),
]);
const widths = header.map((title, column) =>
  Math.max(title.length, ...cells.map((line) => line[column]!.length)),
);
const format = (line: string[]) =>
  line
    .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
    .join('  ');
console.log(
  `Store on a WAL file in ${tmpdir()}, ${MEASURE_MS} ms per measurement, median of ${REPETITIONS}; ` +
    'a round-trip is add → claimNext → complete (three transactions)',
);
console.log(format(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const line of cells) console.log(format(line));

const full = rows.find((row) => row.synchronous === 'FULL')!;
const pass = full.events >= MIN_EVENTS_PER_SECOND && full.roundTrips >= MIN_ROUND_TRIPS_PER_SECOND;
console.log(
  `store: FULL ${number(full.events)} events/s (≥ ${number(MIN_EVENTS_PER_SECOND)}), ` +
    `${number(full.roundTrips)} round-trips/s (≥ ${number(MIN_ROUND_TRIPS_PER_SECOND)}) — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
