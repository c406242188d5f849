import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestAnswer } from '../../../src/agent/state/requests.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import { autoApprove, runWithHarness } from '../../helpers/run-harness.js';
import { safetyOf } from '../../helpers/safety.js';

/*
 * Two tasks of a plan run at once and each asks to write a file. The user answers "always" to
 * the first: the second, already waiting, is released by it (issue 40, item 5), not asked again.
 * The second is only ever answered (with a denial) once the first task completed: before the
 * fix, that denial was what it got.
 */

const task = (id: string) => ({ id, title: `Task ${id}`, description: `write ${id}.txt`, depends_on: [] });

describe('"always" in one of parallel tasks', () => {
  it('releases the requests of that kind already waiting in the other tasks', async () => {
    const model = {
      id: 'script:always',
      model: ScriptModel.fromScript({
        turns: [
          { toolCalls: [{ name: 'plan_actions', args: { tasks: [task('a'), task('b')] } }] },
          ...['a', 'b'].flatMap((id) => [
            {
              task: id,
              toolCalls: [{ name: 'write_file', args: { path: `${id}.txt`, content: `${id}\n` } }],
            },
            { task: id, toolCalls: [{ name: 'task_completed', args: { summary: `${id} written` } }] },
          ]),
          { toolCalls: [{ name: 'final_answer', args: { answer: 'both written' } }] },
        ],
      }),
    };
    const asked: { requestId: string; taskId?: string }[] = [];
    let bothAsked: () => void = () => {};
    const bothAskedNow = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    let firstDone: () => void = () => {};
    const firstCompleted = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    let firstTask: string | undefined;
    const onEvent = (event: ServerEvent) => {
      if (event.type !== 'agent_update') return;
      if (event.update_type === 'approval_requested') {
        asked.push({ requestId: event.request_id, taskId: event.task_id });
        if (asked.length === 2) bothAsked();
      }
      if (event.update_type === 'task_completed' && event.task_id === firstTask) firstDone();
    };
    const approver = async (request: { requestId: string }): Promise<RequestAnswer> => {
      await bothAskedNow;
      if (request.requestId === asked[0]?.requestId) {
        firstTask = asked[0]?.taskId;
        return { kind: 'approval', decision: 'always' };
      }
      await firstCompleted;
      return { kind: 'approval', decision: 'deny' };
    };
    const run = await runWithHarness({
      model,
      planApprover: autoApprove,
      plan: 'always',
      concurrency: 2,
      safety: safetyOf({ mode: 'ask', allow: [], deny: [] }, { kind: 'none' }),
      approver,
      onEvent,
    });
    expect(run.result.status, JSON.stringify(run.result)).toBe('completed');
    expect(asked).toHaveLength(2);
    await access(path.join(run.workspace.root, 'a.txt'));
    await access(path.join(run.workspace.root, 'b.txt'));
  }, 60_000);
});
