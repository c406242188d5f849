import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindOf, openRuntime, record } from './helpers.js';

const NAMES = ['alpha', 'beta', 'gamma'];

describe('Runtime.work', () => {
  it('drains tasks added with tasks.add in order, each in its own stored session', async () => {
    const runtime = await openRuntime(
      NAMES.flatMap((name) => [
        {
          when: `write ${name}.txt`,
          toolCalls: [{ name: 'write_file', args: { path: `${name}.txt`, content: name } }],
        },
        { when: `Created ${name}.txt`, text: `Wrote ${name}.txt.` },
      ]),
    );
    const notices: string[] = [];
    runtime.onNotice((text) => notices.push(text));
    const added = [];
    for (const name of NAMES) added.push(await runtime.tasks.add({ description: `write ${name}.txt` }));
    expect(added.map((entry) => entry.position)).toEqual([1, 2, 3]);
    expect(added.every((entry) => entry.task.sessionId === null)).toBe(true);

    const events = record(runtime);
    const outcome = await runtime.work();
    expect(outcome).toEqual({ kind: 'drained', summary: { completed: 3, failed: 0, stopped: false } });
    expect(
      events.flatMap((event) =>
        event.type === 'agent_update' && event.update_type === 'agent_start' ? [event.goal] : [],
      ),
    ).toEqual(NAMES.map((name) => `write ${name}.txt`));
    expect(notices.filter((text) => text.startsWith('▶ task'))).toEqual([
      '▶ task 1 of 3: write alpha.txt',
      '▶ task 2 of 3: write beta.txt',
      '▶ task 3 of 3: write gamma.txt',
    ]);

    const tasks = await runtime.tasks.list({ all: true });
    expect(tasks.map((task) => [task.title, task.status, task.resultSummary])).toEqual(
      NAMES.map((name) => [`write ${name}.txt`, 'completed', `Wrote ${name}.txt.`]),
    );
    // Each task ran in a session of its own, stored with its goal and its run, and the task
    // records it (a worker that takes the task over after a crash continues that session).
    const sessionIds = events.flatMap((event) => (kindOf(event) === 'agent_start' ? [event.session_id] : []));
    expect(new Set(sessionIds).size).toBe(3);
    expect(tasks.map((task) => task.sessionId)).toEqual(sessionIds);
    for (const [index, sessionId] of sessionIds.entries()) {
      const detail = await runtime.sessions.detail(sessionId);
      expect(detail.session.goal).toBe(`write ${NAMES[index]}.txt`);
      expect(detail.runs.map((run) => [run.status, run.finalAnswer])).toEqual([
        ['completed', `Wrote ${NAMES[index]}.txt.`],
      ]);
    }
    for (const name of NAMES)
      expect(await readFile(path.join(runtime.workspace.root, `${name}.txt`), 'utf8')).toBe(name);

    expect(await runtime.work()).toEqual({ kind: 'empty' });
  });

  it('counts a failed task and goes on to the next', async () => {
    const runtime = await openRuntime([
      { when: 'broken task', error: { status: 400, message: 'bad request from the provider' } },
      {
        when: 'write ok.txt',
        toolCalls: [{ name: 'write_file', args: { path: 'ok.txt', content: 'ok' } }],
      },
      { when: 'Created ok.txt', text: 'Wrote ok.txt.' },
    ]);
    const broken = await runtime.tasks.add({ description: 'broken task' });
    const ok = await runtime.tasks.add({ description: 'write ok.txt' });
    const outcome = await runtime.work();
    expect(outcome).toEqual({ kind: 'drained', summary: { completed: 1, failed: 1, stopped: false } });
    expect((await runtime.tasks.get(broken.task.id))?.status).toBe('failed');
    expect((await runtime.tasks.get(ok.task.id))?.status).toBe('completed');
  });
});
