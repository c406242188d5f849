import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.js';
import { SQLITE_EVENT_POLL_MS, SQLITE_SIGNAL_POLL_MS } from '../../src/store/sqlite/sqlite-signals.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

/*
 * SQLite's wake-ups for other processes' writes (two connections to one file stand for two
 * processes): a server following a session hears of another process's events within a few
 * poll periods, while a worker of the same process waiting for tasks is woken at its own slow
 * pace, not by every event the other process logs (each wake-up tries a claim, a write).
 */

const folders: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function twoConnections(): Promise<[Store, Store]> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-signals-'));
  folders.push(folder);
  const file = path.join(folder, 'taskweave.db');
  const first = openSqliteStore({ path: file, create: true });
  const second = openSqliteStore({ path: file, create: true });
  stores.push(first, second);
  return [first, second];
}

describe('SQLite signals of another connection', () => {
  it('announce its events quickly and wake task listeners only at the task pace', async () => {
    const [server, writer] = await twoConnections();
    const session = await writer.sessions.createSession({
      title: 's',
      goal: 'g',
      workspace: '/w',
      model: 'm',
    });
    const taskWakeUps: number[] = [];
    const announced: { seq: number; at: number }[] = [];
    const stopTasks = await server.signals.onTasks(() => taskWakeUps.push(Date.now()));
    const stopEvents = await server.signals.onEvents((sessionId, seq) => {
      if (sessionId === session.id) announced.push({ seq, at: Date.now() });
    });
    const EVENTS = 40;
    const written: number[] = [];
    const started = Date.now();
    for (let step = 1; step <= EVENTS; step++) {
      await writer.sessions.appendEvent({
        type: 'agent_update',
        update_type: 'agent_note',
        step,
        content: `note ${step}`,
        session_id: session.id,
        run_id: 'run_x',
        ts: Date.now(),
      });
      written[step] = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const until = Date.now() + 2_000;
    while (announced.at(-1)?.seq !== EVENTS && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const elapsed = Date.now() - started;
    await stopTasks();
    await stopEvents();

    expect(announced.at(-1)?.seq).toBe(EVENTS);
    // Each announcement comes within a few event poll periods of the write it announces.
    const delays = announced.map(({ seq, at }) => at - written[seq]!);
    expect(Math.max(...delays)).toBeLessThan(SQLITE_EVENT_POLL_MS * 6);
    // The waiting worker is not woken for each of the other connection's commits.
    expect(taskWakeUps.length).toBeGreaterThan(0);
    expect(taskWakeUps.length).toBeLessThanOrEqual(Math.ceil(elapsed / SQLITE_SIGNAL_POLL_MS) + 1);
  });
});
