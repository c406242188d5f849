import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openQuickRead } from '../../src/store/sqlite/quick-read.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempFolder } from './temp-database.js';

/** A database with goals in two queues in every state, a plan with tasks, sessions and runs. */
async function populated(): Promise<string> {
  const file = path.join(await tempFolder(), 'taskweave.db');
  const store = openSqliteStore({ path: file, create: true });
  const first = await store.sessions.createSession({
    title: 'a',
    goal: 'make a',
    workspace: '/w',
    model: 'script:a',
  });
  const second = await store.sessions.createSession({
    title: 'b',
    goal: 'make b',
    workspace: '/w',
    model: 'openai:gpt-4.1',
  });
  const run = await store.sessions.createRun({ sessionId: first.id, goal: 'make a', mode: 'complex' });
  await store.sessions.finishRun({
    id: run.id,
    status: 'completed',
    finalAnswer: 'done',
    steps: 3,
    inputTokens: 120,
    outputTokens: 7,
  });
  const going = await store.sessions.createRun({ sessionId: second.id, goal: 'make b', mode: 'simple' });
  await store.sessions.appendEvents(
    [0.01, 0.02].map((cost) => ({
      type: 'agent_update' as const,
      update_type: 'model_usage' as const,
      step: 1,
      phase: 'act',
      input_tokens: 300,
      output_tokens: 20,
      cost,
      session_id: second.id,
      run_id: going.id,
      ts: 1_000,
    })),
  );
  const done = await store.tasks.add({ title: 'done', description: 'x' });
  await store.tasks.add({ title: 'waiting', description: 'y' });
  const failed = await store.tasks.add({ title: 'failed', description: 'z', queue: 'other' });
  await store.tasks.settle(done.id, 'complete', 'it is done');
  await store.tasks.settle(failed.id, 'fail', 'it broke');
  await store.tasks.attachSession(done.id, first.id);
  await store.plans.createPlan({
    sessionId: first.id,
    runId: run.id,
    tasks: [
      { key: 't1', title: 'scaffold', description: 'npm init', dependsOn: [] },
      {
        key: 't2',
        title: 'main',
        description: 'src/index.ts',
        dependsOn: ['t1'],
        check: 'test -f src/index.ts',
      },
    ],
  });
  await store.close();
  return file;
}

describe('reading listings without the ORM', () => {
  it('gives the same tasks, sessions and runs as the store', async () => {
    const file = await populated();
    const store = openSqliteStore({ path: file, readOnly: true });
    const quick = await openQuickRead(file);
    expect(quick).toBeDefined();
    if (quick === undefined) return;
    try {
      const tasks = await store.tasks.listAll();
      expect(tasks.length).toBe(5);
      expect(quick.tasks()).toEqual(tasks);
      const sessions = await store.sessions.listSessions({ limit: 10 });
      expect(quick.sessions(10)).toEqual(sessions);
      expect(quick.sessions(1)).toEqual(sessions.slice(0, 1));
      const runs = quick.runs(sessions.map((session) => session.id));
      for (const session of sessions) {
        expect(runs.get(session.id)).toEqual(await store.sessions.runs(session.id));
        const logged = (await store.sessions.events(session.id)).filter(
          (event) => event.type === 'agent_update' && event.update_type === 'model_usage',
        );
        expect(quick.modelCalls(session.id)).toEqual(logged);
      }
      expect(quick.modelCalls(sessions.find((session) => session.title === 'b')?.id ?? '')).toHaveLength(2);
    } finally {
      quick.close();
      await store.close();
    }
  });

  it('leaves a missing file, a database of another version and a file that is not one to the full path', async () => {
    const folder = await tempFolder();
    expect(await openQuickRead(path.join(folder, 'missing.db'))).toBeUndefined();
    const file = await populated();
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)')
      .run('newer', 9_999_999_999_999);
    raw.close();
    expect(await openQuickRead(file)).toBeUndefined();
    const empty = new Database(path.join(folder, 'empty.db'));
    empty.close();
    expect(await openQuickRead(path.join(folder, 'empty.db'))).toBeUndefined();
  });
});
