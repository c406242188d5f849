import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../src/agent/state/journal.js';
import { STREAMED_FLUSH_MS } from '../../../src/agent/state/streamed-events.js';
import { EventBus } from '../../../src/events/bus.js';
import type { EventPayload, ServerEvent } from '../../../src/events/registry.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const RUN = 'run_1';
const delta = (content: string): EventPayload => ({
  type: 'agent_update',
  update_type: 'agent_text_delta',
  step: 1,
  content,
});
const note = (content: string): EventPayload => ({
  type: 'agent_update',
  update_type: 'agent_note',
  step: 1,
  content,
});

const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/**
 * A journal over a real store file; counts the store's transactions (`commits`: groups that
 * write more than events) and its calls that log events (`appends`: one statement each).
 */
async function setup(options: { streamedFlushMs?: number } = {}) {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'taskweave-journal-')), 'taskweave.db');
  const store = openSqliteStore({ path: file, create: true });
  opened.push(store);
  if (options.streamedFlushMs !== undefined) store.streamedFlushMs = options.streamedFlushMs;
  const transaction = store.transaction;
  const commits = { count: 0 };
  store.transaction = (work) => {
    commits.count += 1;
    return transaction(work);
  };
  const appends = { count: 0 };
  const { appendEvent, appendEvents } = store.sessions;
  store.sessions.appendEvent = (event) => {
    appends.count += 1;
    return appendEvent(event);
  };
  store.sessions.appendEvents = (events) => {
    appends.count += 1;
    return appendEvents(events);
  };
  const sessionId = (
    await store.sessions.createSession({ title: 't', goal: 'g', workspace: '/w', model: 'm' })
  ).id;
  const bus = new EventBus();
  const published: ServerEvent[] = [];
  bus.subscribe((event) => published.push(event));
  const journal = new Journal({ sessionId, store, bus });
  return { file, store, sessionId, bus, journal, published, commits, appends };
}

const label = (event: ServerEvent) =>
  event.type === 'agent_update' && 'content' in event ? event.content : event.type;

describe('Journal', () => {
  it('holds streamed deltas and writes them with the next event, in order, seqs without a gap, in one statement', async () => {
    const { store, sessionId, journal, published, commits, appends } = await setup();
    for (let index = 0; index < 100; index++) journal.emit(RUN, delta(`w${index} `));
    await new Promise((resolve) => setImmediate(resolve));
    expect(published).toEqual([]);
    await journal.emit(RUN, note('after the text'));

    const logged = await store.sessions.events(sessionId);
    expect(logged.map((event) => event.seq)).toEqual(Array.from({ length: 101 }, (_, index) => index + 1));
    expect(logged.map(label)).toEqual([
      ...Array.from({ length: 100 }, (_, index) => `w${index} `),
      'after the text',
    ]);
    expect(published).toEqual(logged);
    // Events alone: one call that logs them all, and no transaction of the journal's around it.
    expect(appends.count).toBe(1);
    expect(commits.count).toBe(0);
  });

  it('writes held deltas on their own once STREAMED_FLUSH_MS has passed', async () => {
    const { store, sessionId, journal, published, commits, appends } = await setup();
    const started = performance.now();
    const written = Promise.all([journal.emit(RUN, delta('one ')), journal.emit(RUN, delta('two'))]);
    await written;
    expect(performance.now() - started).toBeGreaterThanOrEqual(STREAMED_FLUSH_MS - 1);
    expect(published.map(label)).toEqual(['one ', 'two']);
    expect((await store.sessions.events(sessionId)).map(label)).toEqual(['one ', 'two']);
    expect(appends.count).toBe(1);
    expect(commits.count).toBe(0);
  });

  it("holds streamed deltas only as long as the store says (a PostgreSQL store's viewers are elsewhere)", async () => {
    const { store, sessionId, journal, commits, appends } = await setup({ streamedFlushMs: 5 });
    const started = performance.now();
    await Promise.all([journal.emit(RUN, delta('one ')), journal.emit(RUN, delta('two'))]);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(4);
    expect(waited).toBeLessThan(STREAMED_FLUSH_MS);
    expect((await store.sessions.events(sessionId)).map(label)).toEqual(['one ', 'two']);
    expect(appends.count).toBe(1);
    expect(commits.count).toBe(0);
  });

  it('writes events alone with one statement, no transaction; one that asks (a request) and events together in one', async () => {
    const { store, sessionId, journal, published, commits, appends } = await setup();
    await journal.emit(RUN, note('alone'));
    expect(commits.count).toBe(0);
    expect(appends.count).toBe(1);
    await Promise.all([journal.emit(RUN, note('first')), journal.emit(RUN, note('second'))]);
    expect(commits.count).toBe(0);
    expect(appends.count).toBe(2);
    // An event that opens a request is written with its request, together.
    await journal.emit(RUN, {
      type: 'agent_update',
      update_type: 'agent_request_input',
      step: 1,
      request_id: 'req_alone',
      question: 'Which one?',
    });
    expect(commits.count).toBe(1);
    expect(await store.requests?.get('req_alone')).toMatchObject({ id: 'req_alone', kind: 'input' });
    const logged = await store.sessions.events(sessionId);
    expect(logged.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(published).toEqual(logged);
  });

  it('logs the events queued one after another with one statement, around the other writes of their group, in order', async () => {
    const { store, sessionId, journal, published, commits, appends } = await setup();
    const task = await store.tasks.add({ title: 'between' });
    const [first, second, , third, fourth] = await Promise.all([
      journal.emit(RUN, note('a')),
      journal.emit(RUN, note('b')),
      journal.record(RUN, () => store.tasks.start(task.id), note('started')),
      journal.emit(RUN, note('c')),
      journal.emit(RUN, note('d')),
    ]);
    // a and b in one statement, the change and its event, then c and d in one: one transaction.
    expect(appends.count).toBe(3);
    expect(commits.count).toBe(1);
    expect([first, second, third, fourth].map((event) => event?.seq)).toEqual([1, 2, 4, 5]);
    const logged = await store.sessions.events(sessionId);
    expect(logged.map(label)).toEqual(['a', 'b', 'started', 'c', 'd']);
    expect(logged.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(published).toEqual(logged);
    expect((await store.tasks.get(task.id))?.status).toBe('in_progress');
  });

  it('commits the state changes of one dispatch and their events in one transaction, before announcing them', async () => {
    const { file, store, bus, journal, published, commits } = await setup();
    const ids: string[] = [];
    for (let index = 0; index < 10; index++) ids.push((await store.tasks.add({ title: `task ${index}` })).id);
    // Another connection sees only what is committed.
    const reader = new Database(file, { readonly: true });
    const statusSeen: string[] = [];
    bus.subscribe((event) => {
      if (event.type === 'agent_update' && event.update_type === 'task_started') {
        const row = reader.prepare('SELECT status FROM tasks WHERE id = ?').get(event.task_id) as {
          status: string;
        };
        statusSeen.push(row.status);
      }
    });
    await Promise.all(
      ids.map((id) =>
        journal.record(
          RUN,
          () => store.tasks.start(id),
          (task) => ({
            type: 'agent_update',
            update_type: 'task_started',
            task_id: task.id,
            title: task.title,
          }),
        ),
      ),
    );
    reader.close();
    expect(commits.count).toBe(1);
    expect(statusSeen).toEqual(Array(10).fill('in_progress'));
    expect(published.map((event) => event.seq)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
  });

  it("writes a turn's writes once its ready work has run: a chain of awaits reaches its end before the commit", async () => {
    const { store, journal, published, commits } = await setup();
    const order: string[] = [];
    const transaction = store.transaction;
    store.transaction = (work) => {
      order.push('commit');
      return transaction(work);
    };
    // A task's start-up: it queues a write, then awaits (no I/O) on its way to its model call.
    const startUp = (async () => {
      journal.emit(RUN, note('task started'));
      for (let index = 0; index < 50; index++) await Promise.resolve();
      order.push('model call');
      journal.emit(RUN, note('turn started'));
    })();
    await startUp;
    await journal.settled();
    expect(order).toEqual(['model call', 'commit']);
    expect(commits.count).toBe(1);
    expect(published.map(label)).toEqual(['task started', 'turn started']);
  });

  it('rejects a change that fails, keeps the rest of its group, and remembers the failure', async () => {
    const { store, sessionId, journal, published } = await setup();
    journal.emit(RUN, note('before'));
    const failing = journal.record(RUN, () => store.tasks.start('tsk_missing'), note('never announced'));
    journal.emit(RUN, note('after'));
    await expect(failing).rejects.toThrow();
    await journal.settled();
    expect(journal.failure?.message).toMatch(/^The store failed:/);
    const logged = await store.sessions.events(sessionId);
    expect(logged.map(label)).toEqual(['before', 'after']);
    expect(logged.map((event) => event.seq)).toEqual([1, 2]);
    expect(published).toEqual(logged);
  });

  it('publishes streamed events once the store gave them their seqs, on their own while nothing else is written', async () => {
    const { store, sessionId, journal, published, commits } = await setup();
    await journal.emit(RUN, note('first'));
    const written = journal.emit(RUN, delta('live '));
    journal.emit(RUN, delta('text'));
    // Held, not yet logged: nothing claims a seq the store has not given.
    expect(published.map(label)).toEqual(['first']);
    await written;
    // Written on their own (no step written meanwhile) and published with the store's seqs.
    expect(published.map((event) => [event.seq, label(event)])).toEqual([
      [1, 'first'],
      [2, 'live '],
      [3, 'text'],
    ]);
    expect(commits.count).toBe(0);
    await journal.emit(RUN, note('after'));
    const logged = await store.sessions.events(sessionId);
    expect(logged.map((event) => [event.seq, label(event)])).toEqual([
      [1, 'first'],
      [2, 'live '],
      [3, 'text'],
      [4, 'after'],
    ]);
    // Published once each, exactly as logged.
    expect(published).toEqual(logged);
  });

  it('publishes a streamed event emitted while a write is queued after that write, in emit order', async () => {
    const { store, sessionId, journal, published } = await setup();
    await journal.emit(RUN, note('first'));
    journal.emit(RUN, note('queued'));
    journal.emit(RUN, delta('behind it'));
    journal.emit(RUN, note('last'));
    expect(published.map(label)).toEqual(['first']);
    await journal.settled();
    expect(published.map((event) => [event.seq, label(event)])).toEqual([
      [1, 'first'],
      [2, 'queued'],
      [3, 'behind it'],
      [4, 'last'],
    ]);
    expect(await store.sessions.events(sessionId)).toEqual(published);
  });

  it('publishes nothing of a write that failed and gives its seqs to the next write: no gap', async () => {
    const { store, sessionId, journal, published } = await setup();
    await journal.emit(RUN, note('first'));
    journal.emit(RUN, delta('lost'));
    const appendEvents = store.sessions.appendEvents;
    store.sessions.appendEvents = () => Promise.reject(new Error('disk I/O error'));
    await journal.settled();
    expect(journal.failure?.message).toBe('The store failed: disk I/O error');
    store.sessions.appendEvents = appendEvents;
    await journal.emit(RUN, note('next'));
    const logged = await store.sessions.events(sessionId);
    expect(logged.map((event) => [event.seq, label(event)])).toEqual([
      [1, 'first'],
      [2, 'next'],
    ]);
    expect(published).toEqual(logged);
  });

  it('announces an event the store could not keep as not logged (seq 0), taking no seq of the store', async () => {
    const { store, sessionId, journal, published } = await setup();
    await journal.emit(RUN, note('first'));
    journal.announceUnkept(RUN, { type: 'response_complete', status: 'failed' });
    expect(published.at(-1)).toMatchObject({ type: 'response_complete', status: 'failed', seq: 0 });
    await journal.emit(RUN, note('next'));
    expect((await store.sessions.events(sessionId)).map((event) => event.seq)).toEqual([1, 2]);
    expect(published.at(-1)).toMatchObject({ seq: 2 });
  });
});
