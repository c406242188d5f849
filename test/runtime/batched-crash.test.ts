import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStreamedEvent } from '../../src/agent/state/streamed-events.js';
import type { ServerEvent } from '../../src/events/registry.js';
import { defaultDatabasePath } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { kindOf, openRuntime, record, scriptModel, startFixture, update } from './helpers.js';

/** A model's note streamed word by word: many deltas, held by the journal between commits. */
const STREAMED_TEXT = `${'Working through the task one word at a time. '.repeat(20)}Now the command.`;
/** Prints a progress line every 10 ms for a few seconds (bounded: the killed run's command ends on its own). */
const PROGRESS_COMMAND = 'for i in $(seq 1 300); do echo "progress line $i"; sleep 0.01; done';

const plan = {
  name: 'plan_actions',
  args: {
    tasks: [
      { id: 't1', title: 'Write one', description: 'Write one.txt', depends_on: [] },
      { id: 't2', title: 'Run the long command', description: 'Run it', depends_on: ['t1'] },
    ],
  },
};

describe('batched persistence and a crash', () => {
  it('keeps everything a resumed run needs when the process is killed between grouped commits', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-batched-crash-');
    const fixture = startFixture([
      'run',
      workspace,
      await scriptModel([
        { toolCalls: [plan] },
        {
          task: 't1',
          text: STREAMED_TEXT,
          toolCalls: [
            { name: 'write_file', args: { path: 'one.txt', content: 'one' } },
            { name: 'task_completed', args: { summary: 'wrote one.txt' } },
          ],
        },
        {
          task: 't2',
          text: STREAMED_TEXT,
          toolCalls: [{ name: 'run_command', args: { command: PROGRESS_COMMAND } }],
        },
      ]),
      'write one, then run the long command',
    ]);
    // Killed while the command streams progress lines: they are announced at once and written
    // within 50 ms, so by a later progress event (the tool sends them further apart than that)
    // the ones before it are written and it is held. The kill waits until the events before the
    // last one hold at least 5 lines (on a loaded machine an event may carry a single line).
    const linesPerEvent: number[] = [];
    await fixture.waitForLine((line) => {
      const event: ServerEvent = JSON.parse(line);
      if (event.type === 'tool_progress')
        linesPerEvent.push([...event.content.matchAll(/progress line \d+/g)].length);
      const beforeLast = linesPerEvent.slice(0, -1).reduce((sum, count) => sum + count, 0);
      return linesPerEvent.length >= 2 && beforeLast >= 5;
    });
    fixture.child.kill('SIGKILL');
    expect((await fixture.closed).signal).toBe('SIGKILL');
    const announced: ServerEvent[] = fixture.lines.map((line) => JSON.parse(line));
    const sessionId = announced[0]!.session_id;

    const store = openSqliteStore({ path: defaultDatabasePath(workspace) });
    try {
      const logged = await store.sessions.events(sessionId);
      // The log agrees with what was announced, seq for seq, and has no gap. Streamed events are
      // announced before they are written: the only ones missing from the log are streamed ones
      // announced after the last commit. Everything else was committed before it was announced.
      const common = Math.min(logged.length, announced.length);
      expect(logged.slice(0, common)).toEqual(announced.slice(0, common));
      const unwritten = announced.slice(logged.length);
      expect(unwritten.filter((event) => !isStreamedEvent(event))).toEqual([]);
      expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
      expect(logged.filter((event) => kindOf(event) === 'agent_text_delta').length).toBeGreaterThan(100);
      // What was lost is a tail of held lines, never a group in the middle.
      // A burst of more lines than one report carries is sent as "… N more lines …" and its
      // latest lines (on a busy machine a report can cover such a burst): those count as sent.
      const progress = logged.flatMap((event) => (event.type === 'tool_progress' ? [event.content] : []));
      const reported = [...progress.join('\n').matchAll(/… (\d+) more lines …|progress line (\d+)/g)];
      const numbers = reported.flatMap((match) => (match[2] === undefined ? [] : [Number(match[2])]));
      expect(numbers.length).toBeGreaterThanOrEqual(5);
      let next: number | undefined;
      const accounted: number[] = [];
      for (const match of reported) {
        if (match[1] !== undefined) {
          if (next !== undefined) next += Number(match[1]);
        } else {
          accounted.push(next ?? Number(match[2]));
          next = Number(match[2]) + 1;
        }
      }
      expect(numbers).toEqual(accounted);
      const tasks = await store.tasks.listAll();
      const byKey = new Map(tasks.filter((task) => task.key !== null).map((task) => [task.key, task]));
      expect(byKey.get('t1')).toMatchObject({ status: 'completed', resultSummary: 'wrote one.txt' });
      expect(byKey.get('t2')).toMatchObject({ status: 'in_progress' });
      // t2's command call is on record before it ran: the resumed run recovers from it.
      const t2Messages = await store.sessions.messages(sessionId, { taskId: byKey.get('t2')!.id });
      expect(JSON.stringify(t2Messages)).toContain(PROGRESS_COMMAND.slice(0, 20));
    } finally {
      await store.close();
    }

    const runtime = await openRuntime(
      [
        {
          task: 't1',
          toolCalls: [{ name: 'write_file', args: { path: 't1-again.txt', content: 'again' } }],
        },
        { task: 't2', toolCalls: [{ name: 'task_completed', args: { summary: 'ran the command' } }] },
        { toolCalls: [{ name: 'final_answer', args: { answer: 'Wrote one.txt and ran the command.' } }] },
      ],
      { cwd: workspace },
    );
    const resumedEvents = record(runtime);
    expect(await runtime.resume()).toMatchObject({
      kind: 'resumed',
      result: { status: 'completed', finalAnswer: 'Wrote one.txt and ran the command.' },
    });
    expect(resumedEvents.find(update('plan_resumed'))).toMatchObject({ completed: ['t1'] });
    const all = await runtime.sessions.detail(sessionId);
    expect(all.runs.map((run) => run.status)).toEqual(['stopped', 'completed']);
    const logged = await runtime.store.sessions.events(sessionId);
    expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
    expect(await readFile(path.join(workspace, 'one.txt'), 'utf8')).toBe('one');
    await expect(readFile(path.join(workspace, 't1-again.txt'), 'utf8')).rejects.toThrow();
  }, 60_000);
});
