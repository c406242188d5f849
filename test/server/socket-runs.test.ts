import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { ASK_ALL } from '../runtime/helpers.js';
import { is, kindOf, startServer, TestClient } from './helpers.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

function plan(tasks: { id: string; depends_on?: string[] }[]) {
  return {
    toolCalls: [
      {
        name: 'plan_actions',
        args: {
          tasks: tasks.map((task) => ({
            id: task.id,
            title: `Write ${task.id}.txt`,
            description: `Write ${task.id}.txt`,
            depends_on: task.depends_on ?? [],
          })),
        },
      },
    ],
  };
}
const write = (task: string) => ({
  task,
  toolCalls: [
    { name: 'write_file', args: { path: `${task}.txt`, content: task } },
    { name: 'task_completed', args: { summary: `wrote ${task}.txt` } },
  ],
});
const FINAL = { toolCalls: [{ name: 'final_answer', args: { answer: 'All written.' } }] };

/** The seqs of the logged messages (seq > 0) of a session. */
const seqsOf = (messages: ServerEvent[], sessionId: string) =>
  messages
    .filter((message) => message.session_id === sessionId && message.seq > 0)
    .map((message) => message.seq);

describe('runs over the WebSocket', () => {
  it('a chat streams its whole run; a reconnect replays from the last seq with no gap or duplicate; a second client sees the same session', async () => {
    const target = await startServer([
      { latencyMs: 150, toolCalls: [{ name: 'run_command', args: { command: 'echo one' } }] },
      { latencyMs: 150, toolCalls: [{ name: 'run_command', args: { command: 'echo two' } }] },
      { text: 'Said one and two.' },
    ]);
    const first = await TestClient.open(target);
    first.send({ type: 'chat', content: 'say one, then two', agent_max_steps: 7, loop: 'react' });
    const accepted = await first.next(is('chat_accepted'));
    expect(accepted).toMatchObject({ position: 0, seq: 0 });
    const sessionId = accepted.session_id;
    expect((await first.next(is('agent_start'))) as ServerEvent).toMatchObject({
      max_steps: 7,
      goal: 'say one, then two',
    });
    await first.next((message) => message.type === 'tool_complete');
    first.close();
    await first.closed;
    const lastSeen = Math.max(...seqsOf(first.messages, sessionId));

    const second = await TestClient.open(target);
    second.send({ type: 'subscribe', session_id: sessionId, after_seq: lastSeen });
    const watcher = await TestClient.open(target);
    watcher.send({ type: 'subscribe', session_id: sessionId });
    const done = await second.next(is('response_complete'));
    expect(done).toMatchObject({ status: 'completed', final_answer: 'Said one and two.' });
    await watcher.next(is('response_complete'));

    const joined = [...seqsOf(first.messages, sessionId), ...seqsOf(second.messages, sessionId)];
    expect(joined).toEqual(joined.map((_, index) => index + 1));
    const watched = seqsOf(watcher.messages, sessionId);
    expect(watched).toEqual(joined);
    expect(watcher.kinds(sessionId)).toContain('tool_start');
  });

  it('stop ends the run mid-tool at once; a later chat continues the session', async () => {
    const target = await startServer([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 20' } }] },
      { when: 'continue after the stop', text: 'Continued where we were.' },
    ]);
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'wait for a long time' });
    const started = await client.next((message) => message.type === 'tool_start');
    const stopAt = Date.now();
    client.send({ type: 'agent_control', action: 'stop', session_id: started.session_id });
    expect(await client.next(is('response_complete'))).toMatchObject({ status: 'stopped' });
    expect(Date.now() - stopAt).toBeLessThan(5_000);
    expect(client.kinds()).toContain('agent_stopped');

    const before = client.messages.length;
    client.send({ type: 'chat', content: 'continue after the stop', session_id: started.session_id });
    const again = await client.next(is('response_complete'), { after: before });
    expect(again).toMatchObject({
      status: 'completed',
      final_answer: 'Continued where we were.',
      session_id: started.session_id,
    });
    // One session, one log: seqs go on.
    const seqs = seqsOf(client.messages, started.session_id);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });

  it('a question is answered over the WebSocket; another times out and the run stops', async () => {
    const target = await startServer(
      [
        { toolCalls: [{ name: 'request_input', args: { question: 'Which colour?' } }] },
        { when: 'The user answered: teal', text: 'Teal it is.' },
        { when: 'second goal', toolCalls: [{ name: 'request_input', args: { question: 'Anyone there?' } }] },
      ],
      { policy: ASK_ALL, inputTimeoutMs: 400 },
    );
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'pick a colour' });
    const asked = await client.next(is('agent_request_input'));
    expect(asked).toMatchObject({ question: 'Which colour?' });
    client.send({ type: 'agent_user_input', content: 'teal' });
    expect(await client.next(is('response_complete'))).toMatchObject({
      status: 'completed',
      final_answer: 'Teal it is.',
    });
    expect(client.kinds()).toContain('agent_user_input');

    const before = client.messages.length;
    client.send({ type: 'chat', content: 'second goal', session_id: asked.session_id });
    await client.next(is('agent_request_input'), { after: before });
    await client.next(is('agent_request_input_timeout'), { after: before });
    const ended = await client.next(is('response_complete'), { after: before });
    expect(ended.type === 'response_complete' && ended.status).not.toBe('completed');
  });

  it('a plan is rejected with feedback, the revision approved, and its tasks run', async () => {
    const target = await startServer(
      [
        plan([{ id: 'x' }]),
        { when: 'Their feedback: two files please', ...plan([{ id: 'a' }, { id: 'b', depends_on: ['a'] }]) },
        write('a'),
        write('b'),
        FINAL,
      ],
      { policy: ASK_ALL },
    );
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'write files', plan: 'always' });
    const first = await client.next(is('plan_proposed'));
    if (first.type !== 'agent_update' || first.update_type !== 'plan_proposed') throw new Error('no plan');
    client.send({
      type: 'plan_decision',
      plan_id: first.plan_id,
      decision: 'reject',
      feedback: 'two files please',
    });
    const second = await client.next((message) => is('plan_proposed')(message) && message !== first);
    if (second.type !== 'agent_update' || second.update_type !== 'plan_proposed') throw new Error('no plan');
    expect(second.tasks.map((task) => task.id)).toEqual(['a', 'b']);
    client.send({ type: 'plan_decision', plan_id: second.plan_id, decision: 'approve' });
    expect(await client.next(is('response_complete'))).toMatchObject({
      status: 'completed',
      final_answer: 'All written.',
    });
    expect(client.kinds().filter((kind) => kind.startsWith('plan_') || kind.startsWith('task_'))).toEqual([
      'plan_proposed',
      'plan_rejected',
      'plan_proposed',
      'plan_approved',
      'task_started',
      'task_completed',
      'task_started',
      'task_completed',
    ]);
    expect(await exists(path.join(target.runtime.workspace.root, 'x.txt'))).toBe(false);
    expect(await exists(path.join(target.runtime.workspace.root, 'b.txt'))).toBe(true);
  });

  it('a failed task waits for a failure decision: retried, then skipped', async () => {
    const target = await startServer(
      [
        plan([{ id: 'a' }, { id: 'b', depends_on: ['a'] }, { id: 'c' }]),
        { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the disk was busy' } }] },
        write('a'),
        { task: 'b', toolCalls: [{ name: 'fail_task', args: { reason: 'b cannot be done' } }] },
        write('c'),
        FINAL,
      ],
      { policy: { ...ASK_ALL, plan: 'approve' }, concurrency: 1 },
    );
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'write three files' });
    const firstFailure = await client.next(is('failure_decision_requested'));
    if (firstFailure.type !== 'agent_update' || firstFailure.update_type !== 'failure_decision_requested')
      throw new Error('no failure decision');
    expect(firstFailure).toMatchObject({ task_id: 'a', reason: 'the disk was busy', blocked: ['b'] });
    client.send({ type: 'failure_decision', request_id: firstFailure.request_id, decision: 'retry' });
    const secondFailure = await client.next(
      (message) => is('failure_decision_requested')(message) && message !== firstFailure,
    );
    if (secondFailure.type !== 'agent_update' || secondFailure.update_type !== 'failure_decision_requested')
      throw new Error('no failure decision');
    expect(secondFailure).toMatchObject({ task_id: 'b' });
    client.send({ type: 'failure_decision', request_id: secondFailure.request_id, decision: 'skip' });
    const done = await client.next(is('response_complete'));
    expect(done).toMatchObject({ status: 'completed' });
    expect(client.messages.filter((message) => kindOf(message) === 'task_skipped')).toHaveLength(1);
    expect(await exists(path.join(target.runtime.workspace.root, 'a.txt'))).toBe(true);
    expect(await exists(path.join(target.runtime.workspace.root, 'b.txt'))).toBe(false);
  });
});
