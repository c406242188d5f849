import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { endOrphanCommands } from '../../src/runtime/worker/orphan-commands.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function store(): Promise<Store> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-orphans-'));
  const opened = openSqliteStore({ path: path.join(folder, 'taskweave.db'), create: true });
  cleanups.push(async () => {
    await opened.close();
    await rm(folder, { recursive: true, force: true });
  });
  return opened;
}

/** The pid of a process that has ended (so its commands are orphans, were they this machine's). */
async function goneProcessPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid ?? 0;
}

describe('ending the commands a killed process left running', () => {
  it("leaves another machine's commands alone in a shared store: their pids mean nothing here", async () => {
    const opened = await store();
    const session = await opened.sessions.createSession({
      title: 't',
      goal: 'g',
      workspace: '/w',
      model: 'm',
    });
    const ownerPid = await goneProcessPid();
    const row = {
      sessionId: session.id,
      runId: 'run_1',
      taskId: null,
      command: 'sleep 60',
      pgid: 1,
      ownerPid,
    };
    await opened.commands.started({ id: 'cmd_here', callId: 'c1', ...row });
    await opened.commands.started({ id: 'cmd_there', callId: 'c2', ...row, host: 'another-machine' });
    const handled = await endOrphanCommands({ store: opened, bus: new EventBus() });
    expect(handled.map((entry) => entry.command.id)).toEqual(['cmd_here']);
    expect((await opened.commands.list()).map((command) => command.id)).toEqual(['cmd_there']);
  });
});
