import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionBook } from '../../../src/runtime/books/session-book.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteStore(): Promise<Store> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-spending-'));
  const store = openSqliteStore({ path: path.join(folder, 'taskweave.db'), create: true });
  cleanups.push(async () => {
    await store.close();
    await rm(folder, { recursive: true, force: true });
  });
  return store;
}

/** A model call of `runId` as its run logs it. */
function call(sessionId: string, runId: string, cost: number) {
  return {
    type: 'agent_update' as const,
    update_type: 'model_usage' as const,
    step: 1,
    phase: 'act',
    input_tokens: 1_000,
    output_tokens: 100,
    cost,
    session_id: sessionId,
    run_id: runId,
    ts: Date.now(),
  };
}

describe('what a session spent, as its summary and detail show it', () => {
  it('counts the calls of a run whose row is not closed (its process was killed) beside the ended runs', async () => {
    const store = await sqliteStore();
    const session = await store.sessions.createSession({
      title: 'goal',
      goal: 'goal',
      workspace: '/tmp',
      model: 'script:x',
    });
    const killed = await store.sessions.createRun({ sessionId: session.id, goal: 'goal', mode: 'simple' });
    await store.sessions.appendEvents([call(session.id, killed.id, 0.02), call(session.id, killed.id, 0.03)]);
    const later = await store.sessions.createRun({ sessionId: session.id, goal: 'next', mode: 'simple' });
    await store.sessions.finishRun({
      id: later.id,
      status: 'stopped',
      steps: 0,
      inputTokens: 0,
      outputTokens: 0,
      cost: 0,
    });
    const book = new SessionBook(store);
    const summary = await book.summary(session.id);
    expect(summary.cost).toBeCloseTo(0.05, 10);
    expect(summary).toMatchObject({ inputTokens: 2_000, outputTokens: 200, status: 'stopped' });
    const detail = await book.detail(session.id);
    expect(detail.runs[0]).toMatchObject({ status: 'running', inputTokens: 2_000, outputTokens: 200 });
    expect(detail.runs[0]?.cost).toBeCloseTo(0.05, 10);
    expect(detail.runs[1]).toMatchObject({ status: 'stopped', cost: 0 });
  });
});
