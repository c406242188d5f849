import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionBook } from '../../../src/runtime/books/session-book.js';
import { readQuickListing } from '../../../src/runtime/quick-listing.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A store in a workspace's usual place (`.taskweave/taskweave.db`), so the quick path reads it too. */
async function sqliteStore(): Promise<{ store: Store; workspace: string }> {
  const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-spending-'));
  await mkdir(path.join(workspace, '.taskweave'));
  const store = openSqliteStore({ path: path.join(workspace, '.taskweave', 'taskweave.db'), create: true });
  cleanups.push(async () => {
    await store.close();
    await rm(workspace, { recursive: true, force: true });
  });
  return { store, workspace };
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

describe('what a session spent, as its summary, detail and lists show it', () => {
  it('counts the calls of a run whose row is not closed (its process was killed) beside the ended runs', async () => {
    const { store, workspace } = await sqliteStore();
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
    // `sessions list` (the REST list and the CLI's full path) and the CLI's quick path count the same.
    const [listedSummary] = await book.list();
    expect(listedSummary).toMatchObject({ inputTokens: 2_000, outputTokens: 200, status: 'stopped' });
    expect(listedSummary?.cost).toBeCloseTo(0.05, 10);
    const quick = await readQuickListing({ cwd: workspace }, 'sessions', 10);
    expect(quick).toBeDefined();
    const [quickSummary] = quick?.sessions(10) ?? [];
    expect(quickSummary).toMatchObject({ inputTokens: 2_000, outputTokens: 200, status: 'stopped' });
    expect(quickSummary?.cost).toBeCloseTo(0.05, 10);
  });

  it('leaves an ended run as its row records it, and a run without calls at nothing', async () => {
    const { store, workspace } = await sqliteStore();
    const session = await store.sessions.createSession({
      title: 'goal',
      goal: 'goal',
      workspace: '/tmp',
      model: 'script:x',
    });
    const ended = await store.sessions.createRun({ sessionId: session.id, goal: 'goal', mode: 'simple' });
    await store.sessions.appendEvents([call(session.id, ended.id, 0.02)]);
    await store.sessions.finishRun({
      id: ended.id,
      status: 'completed',
      steps: 1,
      inputTokens: 1_500,
      outputTokens: 150,
      cost: 0.04,
    });
    await store.sessions.createRun({ sessionId: session.id, goal: 'next', mode: 'simple' });
    const expected = { inputTokens: 1_500, outputTokens: 150, status: 'running', runCount: 2 };
    const book = new SessionBook(store);
    const summary = await book.summary(session.id);
    expect(summary).toMatchObject(expected);
    expect(summary.cost).toBeCloseTo(0.04, 10);
    const quick = await readQuickListing({ cwd: workspace }, 'sessions', 10);
    expect(quick?.sessions(10)[0]).toMatchObject(expected);
    expect(quick?.sessions(10)[0]?.cost).toBeCloseTo(0.04, 10);
  });
});
