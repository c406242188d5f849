import { describe, expect, it } from 'vitest';
import { api, is, startServer, TestClient } from './helpers.js';

const PLAN = {
  toolCalls: [
    {
      name: 'plan_actions',
      args: {
        tasks: [
          { id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] },
          {
            id: 'b',
            title: 'Write b.txt',
            description: 'Write b.txt',
            depends_on: ['a'],
            check: 'test -f b.txt',
          },
        ],
      },
    },
  ],
};
const write = (task: string, file: string) => ({
  task,
  toolCalls: [
    { name: 'write_file', args: { path: file, content: task } },
    { name: 'task_completed', args: { summary: `wrote ${file}` } },
  ],
});
const FINAL = { toolCalls: [{ name: 'final_answer', args: { answer: 'Both written.' } }] };

describe('the REST API', () => {
  it('shows sessions, a session with its runs, its events after a seq, the tree of tasks and a plan', async () => {
    const target = await startServer([PLAN, write('a', 'a.txt'), write('b', 'b.txt'), FINAL], {
      policy: { input: 'ask', plan: 'approve', failure: 'ask' },
    });
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'write a.txt, then b.txt' });
    const done = await client.next(is('response_complete'));
    const sessionId = done.session_id;

    const sessions = await api(target, 'GET', '/api/sessions');
    expect(sessions.status).toBe(200);
    expect(sessions.body.sessions).toHaveLength(1);
    expect(sessions.body.sessions[0]).toMatchObject({
      id: sessionId,
      goal: 'write a.txt, then b.txt',
      status: 'completed',
      run_count: 1,
    });

    const detail = await api(target, 'GET', `/api/sessions/${sessionId.slice(0, 10)}`);
    expect(detail.body).toMatchObject({
      session: { id: sessionId },
      runs: [{ status: 'completed', final_answer: 'Both written.', mode: 'complex' }],
      running: false,
    });

    const all = await api(target, 'GET', `/api/sessions/${sessionId}/events`);
    const seqs = all.body.events.map((event: { seq: number }) => event.seq);
    expect(seqs).toEqual(seqs.map((_: number, index: number) => index + 1));
    const later = await api(target, 'GET', `/api/sessions/${sessionId}/events?after_seq=5`);
    expect(later.body.events[0].seq).toBe(6);
    expect(later.body.events).toHaveLength(seqs.length - 5);
    expect((await api(target, 'GET', `/api/sessions/${sessionId}/events?after_seq=-1`)).status).toBe(400);

    // The goal with its plan's tasks under it.
    const tasks = await api(target, 'GET', '/api/tasks');
    expect(tasks.body.tasks).toHaveLength(1);
    const [goal] = tasks.body.tasks;
    expect(goal).toMatchObject({ session_id: sessionId, plan_id: null, status: 'completed' });
    expect(goal.tasks.map((task: { key: string; status: string }) => [task.key, task.status])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
    ]);

    const planId = goal.tasks[0].plan_id;
    const plan = await api(target, 'GET', `/api/plans/${planId}`);
    expect(plan.body).toMatchObject({ id: planId, session_id: sessionId, status: 'completed' });
    expect(
      plan.body.tasks.map((task: { key: string; depends_on: string[]; check_command: string | null }) => [
        task.key,
        task.depends_on,
        task.check_command,
      ]),
    ).toEqual([
      ['a', [], null],
      ['b', ['a'], 'test -f b.txt'],
    ]);
    expect(await api(target, 'GET', '/api/plans/plan_nothere')).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    expect((await api(target, 'GET', '/api/sessions/ses_nothere1')).status).toBe(404);
  });

  it('adds, completes, cancels and deletes tasks with the rules of taskweave tasks', async () => {
    const target = await startServer([]);
    // The server's worker would run a pending task at once: stop it so the queue stays put.
    target.runtime.stop();
    const added = await api(target, 'POST', '/api/tasks', {
      body: { description: 'write the docs\nall of them' },
    });
    expect(added).toMatchObject({
      status: 201,
      body: { position: 1, task: { title: 'write the docs', status: 'pending' } },
    });
    const second = await api(target, 'POST', '/api/tasks', {
      body: { title: 'Tests', description: 'add tests' },
    });
    expect(second.body.position).toBe(2);

    expect(await api(target, 'POST', '/api/tasks', { body: { description: '   ' } })).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_input', message: expect.stringMatching(/description/) } },
    });
    expect(
      (await api(target, 'POST', '/api/tasks', { body: { description: 'x', color: 'red' } })).status,
    ).toBe(400);
    const notJson = await fetch(`${target.base}/api/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      body: '{"description": ',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      error: { code: expect.any(String), message: expect.any(String) },
    });

    const id = added.body.task.id as string;
    const completed = await api(target, 'POST', `/api/tasks/${id.slice(0, 9)}/complete`, {
      body: { summary: 'done by hand' },
    });
    expect(completed.body.task).toMatchObject({ id, status: 'completed', result_summary: 'done by hand' });
    expect(await api(target, 'POST', `/api/tasks/${id}/complete`)).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict', message: expect.stringMatching(/it is completed/) } },
    });
    const cancelled = await api(target, 'POST', `/api/tasks/${second.body.task.id}/cancel`);
    expect(cancelled.body.task.status).toBe('cancelled');
    expect((await api(target, 'DELETE', `/api/tasks/${id}`)).body.task.id).toBe(id);
    expect(await api(target, 'DELETE', `/api/tasks/${id}`)).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    expect(
      (await api(target, 'GET', '/api/tasks')).body.tasks.map((task: { id: string }) => task.id),
    ).toEqual([second.body.task.id]);
    expect((await api(target, 'GET', '/api/nothing')).status).toBe(404);
  });

  it('runs a task added through REST with the server worker, streamed to a subscriber', async () => {
    const target = await startServer([{ text: 'The notes are written.' }]);
    const added = await api(target, 'POST', '/api/tasks', { body: { description: 'write notes' } });
    const id = added.body.task.id as string;
    let sessionId: string | null = null;
    for (let tries = 0; tries < 100 && sessionId === null; tries += 1) {
      sessionId = (await api(target, 'GET', '/api/tasks')).body.tasks[0].session_id;
      if (sessionId === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sessionId).not.toBeNull();
    const client = await TestClient.open(target);
    client.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    expect(await client.next(is('response_complete'))).toMatchObject({
      status: 'completed',
      final_answer: 'The notes are written.',
    });
    for (let tries = 0; tries < 50; tries += 1) {
      const task = (await api(target, 'GET', '/api/tasks')).body.tasks.find(
        (candidate: { id: string }) => candidate.id === id,
      );
      if (task.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await api(target, 'GET', '/api/tasks')).body.tasks[0]).toMatchObject({ id, status: 'completed' });
  });
});
