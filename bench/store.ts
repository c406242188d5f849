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
 * Each repetition measures all four on fresh files, one after the other, and its ratios are taken
 * against its own raw figure, so that load from elsewhere hits both sides alike.
 *
 * Run: npx tsx bench/store.ts   (exit code 1 when a target is missed)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Journal } from '../src/agent/journal.js';
import { renderTable } from '../src/cli/table.js';
import { EventBus } from '../src/events/bus.js';
import { BUSY_TIMEOUT_MS, DEFAULT_SYNCHRONOUS } from '../src/store/database.js';
import type { Store } from '../src/store/ports.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';

const REPETITIONS = 5;
/** Operations per measurement, after WARM_UP ones: about a quarter of a second each on a quick disk. */
const OPERATIONS = 1_000;
const WARM_UP = 100;
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

/** Operations per second of `count` awaited calls of `operation`, after a warm-up. */
async function rate(count: number, operation: (index: number) => unknown): Promise<number> {
  for (let index = 0; index < WARM_UP; index++) await operation(index);
  const started = performance.now();
  for (let index = WARM_UP; index < WARM_UP + count; index++) await operation(index);
  return (count / (performance.now() - started)) * 1000;
}

function rawCommitsPerSecond(): Promise<number> {
  return withFolder(async (folder) => {
    const sqlite = new Database(path.join(folder, 'raw.db'));
    try {
      sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma(`synchronous = ${DEFAULT_SYNCHRONOUS}`);
      sqlite.exec('CREATE TABLE t (value integer)');
      const insert = sqlite.prepare('INSERT INTO t (value) VALUES (?)');
      return await rate(OPERATIONS, (index) => insert.run(index));
    } finally {
      sqlite.close();
    }
  });
}

/** A store opened as the CLI opens it, a session in it, and a run's journal over it. */
async function withJournal<T>(work: (context: { store: Store; journal: Journal }) => Promise<T>): Promise<T> {
  return withFolder(async (folder) => {
    const store = openSqliteStore({ path: path.join(folder, 'taskweave.db'), create: true });
    try {
      const session = await store.sessions.createSession({
        title: 'bench',
        goal: 'bench',
        workspace: folder,
        model: 'script:bench',
      });
      const journal = new Journal({ sessionId: session.id, store, bus: new EventBus() });
      return await work({ store, journal });
    } finally {
      await store.close();
    }
  });
}

function eventsPerSecond(): Promise<number> {
  return withJournal(({ journal }) =>
    rate(OPERATIONS, (index) =>
      journal.emit('run_bench', {
        type: 'tool_complete',
        call_id: `call_${index}`,
        name: 'search_code',
        result: TOOL_OUTPUT,
        duration_ms: 3,
      }),
    ),
  );
}

function roundTripsPerSecond(): Promise<number> {
  return withJournal(async ({ store, journal }) => {
    const ids: string[] = [];
    for (let index = 0; index < WARM_UP + OPERATIONS; index++) {
      ids.push((await store.tasks.add({ title: `task ${index}`, description: 'write src/index.ts' })).id);
    }
    return rate(OPERATIONS, (index) =>
      journal.record(
        'run_bench',
        () => store.tasks.start(ids[index]!),
        (task) => ({
          type: 'agent_update',
          update_type: 'task_started',
          task_id: task.id,
          title: task.title,
        }),
      ),
    );
  });
}

function deltasPerSecond(): Promise<number> {
  return withJournal(async ({ journal }) => {
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
  samples.push({
    raw: await rawCommitsPerSecond(),
    events: await eventsPerSecond(),
    roundTrips: await roundTripsPerSecond(),
    deltas: await deltasPerSecond(),
  });
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
