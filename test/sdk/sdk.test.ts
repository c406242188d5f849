import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { open, RuntimeInputError, type ServerEvent, type Taskweave } from '../../src/index.js';

/* The SDK's face (src/index.ts, the package's `import { open } from 'taskweave'`) with the script model. */

const ROOT = path.resolve(import.meta.dirname, '../..');
let folder: string;
let taskweave: Taskweave | undefined;

afterEach(async () => {
  await taskweave?.close();
  taskweave = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function workspace(turns: unknown[], options: { approval?: 'ask' | 'auto' } = {}): Promise<Taskweave> {
  folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'taskweave-sdk-')));
  await mkdir(path.join(folder, 'project'));
  const script = path.join(folder, 'script.json');
  await writeFile(script, JSON.stringify({ turns }));
  taskweave = await open({
    cwd: path.join(folder, 'project'),
    model: `script:${script}`,
    approval: options.approval ?? 'auto',
    env: { ...process.env, XDG_CONFIG_HOME: path.join(folder, 'config') },
  });
  return taskweave;
}

describe('the SDK face', () => {
  it('run gives the goal’s events in seq order up to its response_complete, then its result; the session can be read back', async () => {
    const tw = await workspace([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
      { text: 'Wrote a.txt.' },
    ]);
    const run = tw.run('write a.txt');
    const events: ServerEvent[] = [];
    for await (const event of run) events.push(event);
    const { sessionId, position } = await run.started;
    expect(position).toBe(0);
    expect(events.at(-1)).toMatchObject({
      type: 'response_complete',
      status: 'completed',
      session_id: sessionId,
    });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => events[0]!.seq + index));
    expect(events.map((event) => event.type)).toContain('tool_complete');
    expect(await run.result).toEqual({ sessionId, status: 'completed', finalAnswer: 'Wrote a.txt.' });
    expect(readFileSync(path.join(tw.workspace, 'a.txt'), 'utf8')).toBe('a\n');
    const [listed] = await tw.sessions.list();
    expect(listed?.session.id).toBe(sessionId);
    expect((await tw.sessions.get(sessionId)).events?.length).toBe(events.length);
  });

  it('an approval is an event answered with answer; stop stops a run mid-command', async () => {
    const tw = await workspace(
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'asked.txt', content: 'x\n' } }] },
        { toolCalls: [{ name: 'run_command', args: { command: 'sleep 29.5' } }] },
        { text: 'never' },
      ],
      { approval: 'ask' },
    );
    const session = await tw.sessions.create('sdk test');
    const run = tw.run('write, then wait', { session });
    const seen: string[] = [];
    for await (const event of run) {
      if (event.type === 'agent_update' && event.update_type === 'approval_requested') {
        seen.push(event.name);
        expect(await tw.answer(event.request_id, { kind: 'approval', decision: 'allow' })).toEqual({
          ok: true,
        });
      }
      if (event.type === 'tool_progress' || (event.type === 'tool_start' && event.name === 'run_command'))
        expect(await tw.stop(session)).toBe(true);
    }
    expect(seen).toEqual(['write_file', 'run_command']);
    expect((await run.result).status).toBe('stopped');
    expect(existsSync(path.join(tw.workspace, 'asked.txt'))).toBe(true);
  });

  it('a goal the runtime refuses rejects started and result, and the iteration throws', async () => {
    const tw = await workspace([{ text: 'unused' }]);
    const run = tw.run('   ');
    await expect(run.started).rejects.toBeInstanceOf(RuntimeInputError);
    await expect(run.result).rejects.toThrow('The goal is empty');
    await expect(
      (async () => {
        for await (const _ of run);
      })(),
    ).rejects.toThrow('The goal is empty');
    await expect(tw.run('hi', { session: 'ses_nosuch' }).result).rejects.toThrow('There is no session');
  });

  it('the queue takes goals without running them; plans are read by their id', async () => {
    const task = (id: string) => ({ id, title: `Task ${id}`, description: id, depends_on: [] });
    const tw = await workspace([
      { toolCalls: [{ name: 'plan_actions', args: { tasks: [task('t1')] } }] },
      { task: 't1', toolCalls: [{ name: 'task_completed', args: { summary: 'done' } }] },
      { text: 'All done.' },
    ]);
    const run = tw.run('plan it', { plan: 'always' });
    let planId: string | undefined;
    for await (const event of run) {
      if (event.type === 'agent_update' && event.update_type === 'plan_proposed') {
        planId = event.plan_id;
        expect(await tw.answer(event.plan_id, { kind: 'plan', decision: 'approve' })).toEqual({ ok: true });
      }
    }
    expect((await run.result).status).toBe('completed');
    const plan = await tw.plans.get(planId ?? '');
    expect(plan.tasks.map((planned) => planned.title)).toEqual(['Task t1']);
    const queued = await tw.queue.add('later, not now');
    expect((await tw.queue.list()).map((node) => [node.id, node.status])).toContainEqual([
      queued.task.id,
      'pending',
    ]);
  });

  it('a goal behind a running one: wait false leaves it queued, interrupt stops the running one; settled says how this process is done; onEvent sees every run here', async () => {
    const tw = await workspace([
      { when: 'the first goal', latencyMs: 20_000, text: 'First done.' },
      { when: 'the third goal', text: 'Third done.' },
    ]);
    const seen: string[] = [];
    const off = tw.onEvent((event) => seen.push(`${event.session_id}:${event.type}`));
    const first = tw.run('the first goal');
    for await (const event of first)
      if (event.type === 'agent_update' && event.update_type === 'agent_turn_start') break;
    const second = tw.run('the second goal', { wait: false });
    const secondStart = await second.started;
    expect(secondStart).toMatchObject({ position: 2, running: 'the first goal' });
    expect(await second.settled).toEqual({
      sessionId: secondStart.sessionId,
      status: 'queued',
      stopped: false,
    });
    const third = tw.run('the third goal', { interrupt: true });
    // The first goal was cancelled (its model call aborted) and the third ran at once.
    expect(await first.settled).toMatchObject({ status: 'stopped', stopped: true });
    const thirdSettled = await third.settled;
    expect(thirdSettled).toMatchObject({ status: 'completed', finalAnswer: 'Third done.', stopped: false });
    expect(await third.result).toEqual({
      sessionId: thirdSettled.sessionId,
      status: 'completed',
      finalAnswer: 'Third done.',
    });
    // The second, queued before the third, is left to whoever works the queue.
    const queued = await tw.queue.list();
    expect(queued.find((node) => node.id === secondStart.taskId)?.status).toBe('pending');
    off();
    const { sessionId: firstSession } = await first.started;
    expect(seen).toContain(`${firstSession}:response_complete`);
    expect(seen).toContain(`${thirdSettled.sessionId}:response_complete`);
  }, 60_000);

  it('the example program runs against the built package (import { open } from "taskweave")', async () => {
    folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'taskweave-sdk-example-')));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(ROOT, 'examples/sdk/run-goal.mjs'),
        folder,
        'write hello.txt',
        '--model',
        'script:examples/sdk/run-goal.script.json',
      ],
      { cwd: ROOT, env: { ...process.env, XDG_CONFIG_HOME: path.join(folder, '.config') }, timeout: 60_000 },
    );
    expect(stdout).toContain('approval write_file: allow');
    expect(stdout).toContain('approval run_command: deny');
    expect(stdout).toContain('status completed');
    expect(readFileSync(path.join(folder, 'hello.txt'), 'utf8')).toBe('hello\n');
  });
});
