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
import Database from 'better-sqlite3';
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

function withFolder<T>(work: (folder: string) => T): T {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-store-'));
  try {
    return work(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function withDatabase<T>(synchronous: Synchronous, work: (db: TaskweaveDb) => T): T {
  return withFolder((folder) => {
    const db = openDatabase({ path: path.join(folder, 'taskweave.db'), synchronous });
    try {
      return work(db);
    } finally {
      db.close();
    }
  });
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

/**
 * The floor the disk sets: one-row commits per second on bare better-sqlite3, same WAL and
 * synchronous settings, no schema. With FULL each commit waits for one fsync of the WAL, and a
 * round-trip is three commits, so it cannot beat a third of this.
 */
function rawCommitsPerSecond(synchronous: Synchronous): number {
  return withFolder((folder) => {
    const sqlite = new Database(path.join(folder, 'raw.db'));
    try {
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma(`synchronous = ${synchronous}`);
      sqlite.exec('CREATE TABLE t (value integer)');
      const insert = sqlite.prepare('INSERT INTO t (value) VALUES (?)');
      return rate((index) => insert.run(index));
    } finally {
      sqlite.close();
    }
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Row {
  synchronous: Synchronous;
  rawCommits: number;
  events: number;
  roundTrips: number;
}

// Repetitions interleave the modes, so that a burst of load from elsewhere hits both alike.
const samples = new Map<Synchronous, { rawCommits: number[]; events: number[]; roundTrips: number[] }>(
  MODES.map((mode) => [mode, { rawCommits: [], events: [], roundTrips: [] }]),
);
for (let repetition = 0; repetition < REPETITIONS; repetition++) {
  for (const mode of MODES) {
    const sample = samples.get(mode)!;
    sample.rawCommits.push(rawCommitsPerSecond(mode));
    sample.events.push(eventsPerSecond(mode));
    sample.roundTrips.push(roundTripsPerSecond(mode));
  }
}
const rows: Row[] = MODES.map((synchronous) => {
  const sample = samples.get(synchronous)!;
  return {
    synchronous,
    rawCommits: median(sample.rawCommits),
    events: median(sample.events),
    roundTrips: median(sample.roundTrips),
  };
});

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const header = ['synchronous', 'raw commits/s', 'events/s', 'µs/event', 'round-trips/s', 'µs/round-trip'];
const cells = rows.map((row) => [
  row.synchronous,
  number(row.rawCommits),
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
    'a round-trip is add → claimNext → complete (three transactions); ' +
    'raw commits = one-row transactions on bare better-sqlite3 (the disk floor)',
);
console.log(format(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const line of cells) console.log(format(line));

const full = rows.find((row) => row.synchronous === 'FULL')!;
console.log(
  `With FULL every commit waits for an fsync: ${number(full.rawCommits)} raw commits/s here bound a ` +
    `three-commit round-trip to ${number(full.rawCommits / 3)}/s.`,
);
const pass = full.events >= MIN_EVENTS_PER_SECOND && full.roundTrips >= MIN_ROUND_TRIPS_PER_SECOND;
console.log(
  `store: FULL ${number(full.events)} events/s (≥ ${number(MIN_EVENTS_PER_SECOND)}), ` +
    `${number(full.roundTrips)} round-trips/s (≥ ${number(MIN_ROUND_TRIPS_PER_SECOND)}) — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
