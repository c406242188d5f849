import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { coreTools } from '../../../src/tools/registry.js';
import { mockModel, promptText } from '../../helpers/mock-model.js';
import { runWithHarness } from '../../helpers/run-harness.js';

describe('the to-do tools (persistent task list)', () => {
  it('lets the agent add, list and settle tasks that outlive the run, but not its own request', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const { sessions, tasks } = store;
    const sessionId = (
      await sessions.createSession({ title: 't', goal: 'g', workspace: '/w', model: 'mock' })
    ).id;
    const own = await tasks.add({ title: 'the current request', sessionId });
    const earlier = await tasks.add({ title: 'an earlier to-do' });
    const model = mockModel([
      {
        toolCalls: [
          { name: 'todo_add', args: { description: 'Write the changelog\nfor release 2.0' } },
          { name: 'todo_complete', args: { task_id: earlier.id, result_summary: 'done along the way' } },
          { name: 'todo_fail', args: { task_id: own.id, reason: 'trying to close my own request' } },
        ],
      },
      (options) => {
        const text = promptText(options);
        expect(text).toMatch(/as #3 on the to-do list: "Write the changelog"/);
        expect(text).toContain('That is the request you are working on now');
        return { toolCalls: [{ name: 'todo_list', args: {} }] };
      },
      (options) => {
        expect(promptText(options)).toMatch(
          /1\. task_\w+ \[pending\] \(the request you are working on\) the current request\n2\. task_\w+ \[pending\] Write the changelog/,
        );
        return { text: 'Queued the changelog for later.' };
      },
    ]);
    const { result } = await runWithHarness({
      model,
      tools: coreTools,
      store,
      sessionId,
      ownTaskId: own.id,
    });
    expect(result.status, result.reason).toBe('completed');
    expect(await tasks.get(earlier.id)).toMatchObject({
      status: 'completed',
      resultSummary: 'done along the way',
    });
    expect((await tasks.get(own.id))?.status).toBe('pending');
    expect((await tasks.listActive()).map((task) => task.title)).toEqual([
      'the current request',
      'Write the changelog',
    ]);
    expect((await sessions.runs(sessionId)).map((run) => run.status)).toEqual(['completed']);
  });
});
