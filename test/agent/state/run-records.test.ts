import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../src/agent/state/journal.js';
import { RunRecords } from '../../../src/agent/state/run-records.js';
import { EventBus } from '../../../src/events/bus.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { validatePlan } from '../../../src/plan/task-graph.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe('RunRecords.taskState', () => {
  it('changes a task once; the same state again (a resumed run) is no change; a refused change still throws', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'taskweave-records-')), 'taskweave.db');
    const store = openSqliteStore({ path: file, create: true });
    opened.push(store);
    const session = await store.sessions.createSession({
      title: 't',
      goal: 'g',
      workspace: '/w',
      model: 'script:x',
    });
    const bus = new EventBus();
    const events: ServerEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const records = new RunRecords(store, new Journal({ sessionId: session.id, store, bus }));
    const runId = await records.startRun('g', 'complex');
    const validation = validatePlan([{ id: 'a', title: 'a', description: 'a', depends_on: [] }]);
    if (!validation.ok) throw new Error(validation.errors.join('; '));
    const planId = await records.proposePlan(runId, validation.graph);
    const [task] = await store.plans.planTasks(planId);
    const started = { type: 'agent_update', update_type: 'task_started', task_id: 'a', title: 'a' } as const;
    const change = (state: 'in_progress' | 'completed', event = started) =>
      records.taskState(runId, { planId, key: 'a', state, detail: 'done' }, event);

    await change('in_progress');
    await change('in_progress');
    expect(await store.tasks.get(task?.id ?? '')).toMatchObject({ status: 'in_progress' });
    await change('completed');
    await change('completed');
    const stored = await store.tasks.get(task?.id ?? '');
    expect(stored).toMatchObject({ status: 'completed', resultSummary: 'done' });
    // Completed cannot start again: refused, not taken for "already so".
    await expect(change('in_progress')).rejects.toThrow(/Cannot start task .*: it is completed/);
    expect(await store.tasks.get(task?.id ?? '')).toEqual(stored);
    // Each call announces its event, changed or not (a resumed run shows where it is).
    expect(
      events.filter((event) => event.type === 'agent_update' && event.update_type === 'task_started'),
    ).toHaveLength(4);
  });
});
