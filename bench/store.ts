/**
 * Store throughput on a real file, in WAL mode with synchronous=NORMAL and synchronous=FULL (the
 * targets apply to FULL, the default):
 * - events appended per second;
 * - task round-trips per second as a worker makes them: a stream of HAND_OFF_TASKS tasks is
 *   added (one commit each), then the worker claims the first and hands off from each task to
 *   the next with completeAndClaimNext (one commit each); the rate is the tasks over the time
 *   of all of it, adds included;
 * - for comparison, the older three-commit round-trip: add → claimNext → complete.
 *
 * Each measurement runs on a fresh database after a short warm-up; the table shows the median
 * of REPETITIONS runs.
 *
 * Run: npx tsx bench/store.ts   (exit code 1 when a target is missed)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { renderTable } from '../src/cli/table.js';
import type { ServerEvent } from '../src/events/registry.js';
import { openDatabase, type Synchronous, type TaskweaveDb } from '../src/store/database.js';
import { SessionStore } from '../src/store/session-store.js';
import { TaskStore } from '../src/store/task-store.js';

const MEASURE_MS = 1_500;
const WARM_UP_OPERATIONS = 200;
const REPETITIONS = 5;
const LEASE_MS = 60_000;
/** Tasks in the measured stream of the hand-off round-trip: about a second of work with FULL. */
const HAND_OFF_TASKS = 2_500;
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

/**
 * Adds `count` tasks, then works through them as the worker loop does: one claimNext, then one
 * completeAndClaimNext per task. Every call is its own transaction.
 */
function addAndHandOff(store: TaskStore, count: number): void {
  for (let index = 0; index < count; index++) {
    store.add({ title: `task ${index}`, description: 'write src/index.ts with a main function' });
  }
  let current = store.claimNext({ owner: 'bench', leaseMs: LEASE_MS });
  let handOffs = 0;
  while (current !== undefined) {
    current = store.completeAndClaimNext({
      id: current.id,
      resultSummary: 'wrote it',
      owner: 'bench',
      leaseMs: LEASE_MS,
    }).next;
    handOffs++;
  }
  if (handOffs !== count) throw new Error(`${handOffs} hand-offs for a stream of ${count} tasks`);
}

function handOffRoundTripsPerSecond(synchronous: Synchronous): number {
  return withDatabase(synchronous, (db) => {
    const store = new TaskStore(db);
    addAndHandOff(store, WARM_UP_OPERATIONS);
    const started = performance.now();
    addAndHandOff(store, HAND_OFF_TASKS);
    return (HAND_OFF_TASKS / (performance.now() - started)) * 1000;
  });
}

function threeCommitRoundTripsPerSecond(synchronous: Synchronous): number {
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
 * synchronous settings, no schema. With FULL each commit waits for one fsync of the WAL: a
 * hand-off round-trip is two commits and cannot beat half of this, the older one a third.
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

const MEASUREMENTS = {
  rawCommits: rawCommitsPerSecond,
  events: eventsPerSecond,
  roundTrips: handOffRoundTripsPerSecond,
  threeCommitRoundTrips: threeCommitRoundTripsPerSecond,
};
type Measurement = keyof typeof MEASUREMENTS;
type Row = { synchronous: Synchronous } & Record<Measurement, number>;
const measurements: readonly Measurement[] = ['rawCommits', 'events', 'roundTrips', 'threeCommitRoundTrips'];

// Repetitions interleave the modes, so that a burst of load from elsewhere hits both alike.
const samples = new Map<Synchronous, Record<Measurement, number[]>>(
  MODES.map((mode) => [mode, { rawCommits: [], events: [], roundTrips: [], threeCommitRoundTrips: [] }]),
);
for (let repetition = 0; repetition < REPETITIONS; repetition++) {
  for (const mode of MODES) {
    const sample = samples.get(mode)!;
    for (const measurement of measurements) sample[measurement].push(MEASUREMENTS[measurement](mode));
  }
}
const rows: Row[] = MODES.map((synchronous) => {
  const sample = samples.get(synchronous)!;
  return {
    synchronous,
    rawCommits: median(sample.rawCommits),
    events: median(sample.events),
    roundTrips: median(sample.roundTrips),
    threeCommitRoundTrips: median(sample.threeCommitRoundTrips),
  };
});

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const header = [
  'synchronous',
  'raw commits/s',
  'events/s',
  'µs/event',
  'round-trips/s',
  'µs/round-trip',
  'add+claim+complete (3 commits)/s',
];
const cells = rows.map((row) => [
  row.synchronous,
  number(row.rawCommits),
  number(row.events),
  (1e6 / row.events).toFixed(0),
  number(row.roundTrips),
  (1e6 / row.roundTrips).toFixed(0),
  number(row.threeCommitRoundTrips),
]);
console.log(
  `Store on a WAL file in ${tmpdir()}, median of ${REPETITIONS}; ` +
    `a round-trip is add + completeAndClaimNext hand-off (two commits; ${number(HAND_OFF_TASKS)} tasks added, ` +
    'then handed off one to the next), the older add+claim+complete is three; ' +
    `raw commits = one-row transactions on bare better-sqlite3 (the disk floor); ${MEASURE_MS} ms per rate`,
);
process.stdout.write(
  renderTable({
    columns: header.map((title, index) => ({ header: title, align: index === 0 ? 'left' : 'right' })),
    rows: cells,
  }),
);

const full = rows.find((row) => row.synchronous === 'FULL')!;
console.log(
  `With FULL every commit waits for an fsync: ${number(full.rawCommits)} raw commits/s here bound a ` +
    `two-commit round-trip to ${number(full.rawCommits / 2)}/s and a three-commit one to ${number(full.rawCommits / 3)}/s.`,
);
const pass = full.events >= MIN_EVENTS_PER_SECOND && full.roundTrips >= MIN_ROUND_TRIPS_PER_SECOND;
console.log(
  `store: FULL ${number(full.events)} events/s (≥ ${number(MIN_EVENTS_PER_SECOND)}), ` +
    `${number(full.roundTrips)} add+hand-off round-trips/s (≥ ${number(MIN_ROUND_TRIPS_PER_SECOND)}) — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
