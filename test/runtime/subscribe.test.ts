import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/agent/state/journal.js';
import type { ServerEvent } from '../../src/events/registry.js';
import { SUBSCRIPTION_FALLBACK_POLL_MS } from '../../src/runtime/subscription.js';
import { openRuntime, startFixture, waitUntil } from './helpers.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('Runtime.subscribe', () => {
  it('replays the logged events after a seq, then streams live ones with no gap or duplicate', async () => {
    const runtime = await openRuntime([
      { when: 'first goal', text: 'first answer' },
      { when: 'other session', text: 'other answer' },
      {
        when: 'second goal',
        latencyMs: 300,
        toolCalls: [{ name: 'write_file', args: { path: 'two.txt', content: 'two' } }],
      },
      { when: 'Created two.txt', latencyMs: 300, text: 'second answer' },
    ]);
    const first = await runtime.submit('first goal');
    if (first.kind !== 'started') throw new Error('the goal did not start');
    await first.done;
    const sessionId = first.sessionId;
    const logged = await runtime.sessions.events(sessionId);
    expect(logged.length).toBeGreaterThan(4);
    const lastLogged = logged.at(-1)!.seq;

    const received: ServerEvent[] = [];
    const unsubscribe = runtime.subscribe(sessionId, 3, (event) => received.push(event));
    // Events of other sessions never reach the subscriber.
    const other = await runtime.submit('a goal in another session');
    if (other.kind !== 'started') throw new Error('the other goal did not start');
    expect((await other.done).result.finalAnswer).toBe('other answer');

    const second = await runtime.submit('second goal', { sessionId });
    if (second.kind !== 'started') throw new Error('the second goal did not start');
    // Live: the subscriber sees the run's events while it runs, before it ends.
    await waitUntil(() => received.some((event) => event.type === 'tool_start'));
    expect(received.some((event) => event.seq > lastLogged && event.type === 'response_complete')).toBe(
      false,
    );
    await second.done;
    const all = await runtime.sessions.events(sessionId);
    await waitUntil(() => received.at(-1)?.seq === all.at(-1)!.seq);
    await new Promise((resolve) => setTimeout(resolve, 250));
    unsubscribe();

    expect(received.map((event) => event.seq)).toEqual(range(4, all.at(-1)!.seq));
    expect(received).toEqual(all.slice(3));
    expect(received.every((event) => event.session_id === sessionId)).toBe(true);
    expect(received.filter((event) => event.type === 'response_complete')).toHaveLength(2);

    // Unsubscribed: later events of the session are not delivered.
    const count = received.length;
    await runtime.store.sessions.appendEvent({
      type: 'agent_update',
      update_type: 'agent_note',
      step: 0,
      content: 'after the end',
      session_id: sessionId,
      run_id: 'run-x',
      ts: Date.now(),
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(received).toHaveLength(count);
  });

  it('delivers events another process writes to the same database, interleaved with ours, in seq order', async () => {
    const runtime = await openRuntime([{ text: 'unused' }]);
    const session = await runtime.store.sessions.createSession({
      title: 'shared',
      goal: 'shared log',
      workspace: runtime.workspace.root,
      model: 'test',
    });
    const run = await runtime.store.sessions.createRun({
      sessionId: session.id,
      goal: 'shared log',
      mode: 'simple',
    });
    const ours = new Journal({ sessionId: session.id, store: runtime.store, bus: runtime.bus });
    const note = (content: string, step: number) =>
      ours.emit(run.id, { type: 'agent_update', update_type: 'agent_note', step, content });
    for (let index = 1; index <= 5; index++) await note(`before ${index}`, index);

    const received: ServerEvent[] = [];
    const unsubscribe = runtime.subscribe(session.id, 2, (event) => received.push(event));

    const OTHERS = 50;
    const OURS = 30;
    const fixture = startFixture(['append', runtime.databasePath, session.id, run.id, String(OTHERS)]);
    await fixture.waitForLine((line) => line === 'ready');
    fixture.child.stdin.end('go\n');
    for (let index = 1; index <= OURS; index++) {
      await note(`from this process ${index}`, index);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await fixture.waitForLine((line) => line.startsWith('done'));
    const { code, stderr } = await fixture.closed;
    expect(code, stderr).toBe(0);

    const total = 5 + OTHERS + OURS;
    await waitUntil(() => received.at(-1)?.seq === total, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 250));
    unsubscribe();

    expect(received.map((event) => event.seq)).toEqual(range(3, total));
    const contents = received.map((event) => ('content' in event ? event.content : ''));
    expect(contents.filter((content) => content.startsWith('from the other process'))).toEqual(
      range(1, OTHERS).map((index) => `from the other process ${index}`),
    );
    expect(contents.filter((content) => content.startsWith('from this process'))).toEqual(
      range(1, OURS).map((index) => `from this process ${index}`),
    );
    expect(received).toEqual(await runtime.sessions.events(session.id, 2));
    // The two writers really interleaved (else the test shows nothing about the merge).
    const firstOther = contents.findIndex((content) => content.startsWith('from the other'));
    const lastOurs = contents.findLastIndex((content) => content.startsWith('from this process'));
    expect(firstOther).toBeLessThan(lastOurs);
  });
});

describe("Runtime.subscribe on this process's runs", () => {
  it('delivers them from the bus as they happen: the log is read on subscribing, not per event', async () => {
    const STEPS = 30;
    const turns = [
      ...range(1, STEPS).map((step) => ({
        latencyMs: 25,
        text: `step ${step}`,
        toolCalls: [{ name: 'write_file', args: { path: `f${step}.txt`, content: `${step}\n` } }],
      })),
      { text: 'all written' },
    ];
    const runtime = await openRuntime(turns, { maxSteps: STEPS + 5 });
    const session = await runtime.store.sessions.createSession({
      title: 'own',
      goal: 'own run',
      workspace: runtime.workspace.root,
      model: 'test',
    });
    const log = runtime.store.sessions;
    const read = log.events.bind(log);
    let reads = 0;
    log.events = (...args) => {
      reads++;
      return read(...args);
    };
    const received: ServerEvent[] = [];
    const unsubscribe = runtime.subscribe(session.id, 0, (event) => received.push(event));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const readsBefore = reads;
    const startedAt = Date.now();

    const started = await runtime.submit('write the files', { sessionId: session.id });
    if (started.kind !== 'started') throw new Error('the goal did not start');
    expect((await started.done).result.finalAnswer).toBe('all written');
    const all = await read(session.id);
    await waitUntil(() => received.at(-1)?.seq === all.at(-1)!.seq);
    unsubscribe();
    const elapsed = Date.now() - startedAt;

    expect(all.length).toBeGreaterThan(STEPS * 5);
    expect(received).toEqual(all);
    // The run took STEPS × 25 ms or more: a poll of the log would have read it again and again.
    // Only the slow fallback poll reads while no other process writes.
    expect(reads - readsBefore).toBeLessThanOrEqual(Math.floor(elapsed / SUBSCRIPTION_FALLBACK_POLL_MS) + 1);
  });
});
