/**
 * Store throughput against what this disk allows, measured in the same run: no absolute target,
 * since a target in events per second tests the disk, not taskweave.
 *
 * - raw commits/s: a bare better-sqlite3 insert loop, one row per commit, with the pragmas the
 *   CLI's store uses (WAL, the default synchronous setting, the busy timeout): the floor the disk
 *   sets, each commit waiting for one fsync of the WAL;
 * - events/s: events logged one after another through a run's journal on a store opened as the
 *   CLI opens it (each awaited, so each is its own commit): target ≥ 0.9 × raw;
 * - round-trips/s: a state change and the event announcing it (a task started, then
 *   task_started), through the journal, one after another: target ≥ 0.45 × raw (two commits
 *   would allow at most 0.5);
 * - streamed deltas/s: text deltas as a model streams them (not awaited one by one), which the
 *   journal groups into few commits; shown for information.
 *
 * Each repetition measures raw commits, events and round-trips on fresh files in interleaved
 * chunks of 100 (in a rotating order), and its ratios are taken against its own raw figure, so
 * that the disk's ups and downs and load from elsewhere hit all sides alike; then the deltas.
 *
 * Run: npx tsx bench/store.ts   (exit code 1 when a target is missed)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Journal } from '../src/agent/state/journal.js';
import { renderTable } from '../src/cli/render/table.js';
import { EventBus } from '../src/events/bus.js';
import type { Store } from '../src/store/ports.js';
import { BUSY_TIMEOUT_MS, DEFAULT_SYNCHRONOUS } from '../src/store/sqlite/database.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const REPETITIONS = 5;
/** Operations per measurement, in CHUNKS interleaved chunks, after a warm-up chunk. */
const OPERATIONS = 1_000;
const CHUNKS = 10;
const CHUNK = OPERATIONS / CHUNKS;
const DELTAS = 5_000;
const MIN_EVENTS_RATIO = 0.9;
const MIN_ROUND_TRIP_RATIO = 0.45;

/** A tool result of a typical size: most of the log is tool output. */
const TOOL_OUTPUT = 'src/index.ts:12: export function main() {\n'.repeat(8);

async function withFolder<T>(work: (folder: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-store-'));
  try {
    return await work(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** One kind of operation, measured in chunks: the next index, the time counted and the operations in it. */
interface Measured {
  run: (index: number) => unknown;
  next: number;
  ms: number;
  done: number;
}

/** Times `count` awaited calls of an operation, adding to its total. */
async function chunk(measured: Measured, count: number, counted: boolean): Promise<void> {
  const started = performance.now();
  for (let index = 0; index < count; index++) await measured.run(measured.next++);
  if (!counted) return;
  measured.ms += performance.now() - started;
  measured.done += count;
}

/** A bare better-sqlite3 insert loop with the CLI store's pragmas: one fsync'd commit per row. */
function openRaw(folder: string): { insert: (value: number) => unknown; close: () => void } {
  const sqlite = new Database(path.join(folder, 'raw.db'));
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${DEFAULT_SYNCHRONOUS}`);
  sqlite.exec('CREATE TABLE t (value integer)');
  const insert = sqlite.prepare('INSERT INTO t (value) VALUES (?)');
  return { insert: (value) => insert.run(value), close: () => sqlite.close() };
}

/** A store opened as the CLI opens it, a session in it, and a run's journal over it. */
async function openJournal(file: string): Promise<{ store: Store; journal: Journal }> {
  const store = openSqliteStore({ path: file, create: true });
  const session = await store.sessions.createSession({
    title: 'bench',
    goal: 'bench',
    workspace: path.dirname(file),
    model: 'script:bench',
  });
  return { store, journal: new Journal({ sessionId: session.id, store, bus: new EventBus() }) };
}

/**
 * Raw commits, events and round-trips, measured in interleaved chunks (in a rotating order) on
 * three files of one folder, so that the disk's ups and downs fall on all three alike.
 */
function commitsPerSecond(): Promise<{ raw: number; events: number; roundTrips: number }> {
  return withFolder(async (folder) => {
    const raw = openRaw(folder);
    const logged = await openJournal(path.join(folder, 'events.db'));
    const tracked = await openJournal(path.join(folder, 'tasks.db'));
    try {
      const ids: string[] = [];
      for (let index = 0; index < CHUNK + OPERATIONS; index++) {
        ids.push(
          (await tracked.store.tasks.add({ title: `task ${index}`, description: 'write src/index.ts' })).id,
        );
      }
      const measures: Measured[] = [
        { run: (index) => raw.insert(index), next: 0, ms: 0, done: 0 },
        {
          run: (index) =>
            logged.journal.emit('run_bench', {
              type: 'tool_complete',
              call_id: `call_${index}`,
              name: 'search_code',
              result: TOOL_OUTPUT,
              duration_ms: 3,
            }),
          next: 0,
          ms: 0,
          done: 0,
        },
        {
          run: (index) =>
            tracked.journal.record(
              'run_bench',
              () => tracked.store.tasks.start(ids[index]!),
              (task) => ({
                type: 'agent_update',
                update_type: 'task_started',
                task_id: task.id,
                title: task.title,
              }),
            ),
          next: 0,
          ms: 0,
          done: 0,
        },
      ];
      for (const measured of measures) await chunk(measured, CHUNK, false);
      for (let round = 0; round < CHUNKS; round++) {
        for (let offset = 0; offset < measures.length; offset++) {
          await chunk(measures[(round + offset) % measures.length]!, CHUNK, true);
        }
      }
      const [rawRate, eventRate, roundTripRate] = measures.map(
        (measured) => (measured.done / measured.ms) * 1000,
      );
      return { raw: rawRate!, events: eventRate!, roundTrips: roundTripRate! };
    } finally {
      raw.close();
      await logged.store.close();
      await tracked.store.close();
    }
  });
}

function deltasPerSecond(): Promise<number> {
  return withFolder(async (folder) => {
    const { store, journal } = await openJournal(path.join(folder, 'deltas.db'));
    try {
      const started = performance.now();
      for (let index = 0; index < DELTAS; index++) {
        journal.emit('run_bench', {
          type: 'agent_update',
          update_type: 'agent_text_delta',
          step: 1,
          content: 'word ',
        });
      }
      await journal.settled();
      return (DELTAS / (performance.now() - started)) * 1000;
    } finally {
      await store.close();
    }
  });
}

interface Sample {
  raw: number;
  events: number;
  roundTrips: number;
  deltas: number;
}

const samples: Sample[] = [];
for (let repetition = 0; repetition < REPETITIONS; repetition++) {
  samples.push({ ...(await commitsPerSecond()), deltas: await deltasPerSecond() });
}

function spread(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
}

const number = (value: number) => Math.round(value).toLocaleString('en-US');
const rows = (['raw', 'events', 'roundTrips', 'deltas'] as const).map((key) => {
  const perSecond = spread(samples.map((sample) => sample[key]));
  const ratio = spread(samples.map((sample) => sample[key] / sample.raw));
  return { key, perSecond, ratio };
});
const labels = {
  raw: 'raw commits',
  events: 'events',
  roundTrips: 'round-trips (state + event)',
  deltas: 'streamed deltas',
};
console.log(
  `Store on a WAL file in ${tmpdir()}, synchronous=${DEFAULT_SYNCHRONOUS}, ${REPETITIONS} repetitions ` +
    `(min/median/max); each ratio is against the raw commits/s of its own repetition`,
);
process.stdout.write(
  renderTable({
    columns: [
      { header: 'measure', align: 'left' },
      { header: 'per second (min/med/max)', align: 'right' },
      { header: '× raw (min/med/max)', align: 'right' },
    ],
    rows: rows.map((row) => [
      labels[row.key],
      `${number(row.perSecond.min)}/${number(row.perSecond.median)}/${number(row.perSecond.max)}`,
      `${row.ratio.min.toFixed(2)}/${row.ratio.median.toFixed(2)}/${row.ratio.max.toFixed(2)}`,
    ]),
  }),
);
const eventsRatio = rows.find((row) => row.key === 'events')!.ratio.median;
const roundTripRatio = rows.find((row) => row.key === 'roundTrips')!.ratio.median;
const pass = eventsRatio >= MIN_EVENTS_RATIO && roundTripRatio >= MIN_ROUND_TRIP_RATIO;
console.log(
  `store: events ${eventsRatio.toFixed(2)} × raw (target ≥ ${MIN_EVENTS_RATIO}), ` +
    `round-trips ${roundTripRatio.toFixed(2)} × raw (target ≥ ${MIN_ROUND_TRIP_RATIO}) — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
