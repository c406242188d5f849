import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/store/session-store.js';
import { TaskStore } from '../../src/store/task-store.js';
import { coreTools } from '../../src/tools/registry.js';
import { mockModel, promptText } from '../helpers/mock-model.js';
import { runWithHarness } from '../helpers/run-harness.js';
import { openTempDatabase } from '../store/temp-database.js';

describe('the to-do tools (persistent task list)', () => {
  it('lets the agent add, list and settle tasks that outlive the run, but not its own request', async () => {
    const db = await openTempDatabase();
    const sessions = new SessionStore(db);
    const tasks = new TaskStore(db);
    const sessionId = sessions.createSession({ title: 't', goal: 'g', workspace: '/w', model: 'mock' }).id;
    const own = tasks.add({ title: 'the current request', sessionId });
    const earlier = tasks.add({ title: 'an earlier to-do' });
    const model = mockModel([
      {
        toolCalls: [
          { name: 'add_task', args: { description: 'Write the changelog\nfor release 2.0' } },
          { name: 'complete_task', args: { task_id: earlier.id, result_summary: 'done along the way' } },
          { name: 'fail_task', args: { task_id: own.id, reason: 'trying to close my own request' } },
        ],
      },
      (options) => {
        const text = promptText(options);
        expect(text).toMatch(/as #3 on the to-do list: "Write the changelog"/);
        expect(text).toContain('That is the request you are working on now');
        return { toolCalls: [{ name: 'list_tasks', args: {} }] };
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
      stores: { sessionId, sessions, tasks },
      ownTaskId: own.id,
    });
    expect(result.status, result.reason).toBe('completed');
    expect(tasks.get(earlier.id)).toMatchObject({ status: 'completed', resultSummary: 'done along the way' });
    expect(tasks.get(own.id)?.status).toBe('pending');
    expect(tasks.listActive().map((task) => task.title)).toEqual([
      'the current request',
      'Write the changelog',
    ]);
    expect(sessions.runs(sessionId).map((run) => run.status)).toEqual(['completed']);
  });
});
