import { describe, expect, it } from 'vitest';
import type { RequestAnswer } from '../../../src/agent/state/requests.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import { autoApprove, runWithHarness } from '../../helpers/run-harness.js';
import { safetyOf } from '../../helpers/safety.js';

/*
 * A plan task's check is a command the approved plan gave, not one the model chose now: when it
 * must be approved, the request says so (issue 40, item 5), and a call of the model does not.
 */
describe("a task's check asked for approval", () => {
  it('says it is the check of the approved plan', async () => {
    const model = {
      id: 'script:check',
      model: ScriptModel.fromScript({
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    {
                      id: 'a',
                      title: 'Note',
                      description: 'write a note',
                      depends_on: [],
                      check: 'test -s note.txt',
                    },
                  ],
                },
              },
            ],
          },
          { task: 'a', toolCalls: [{ name: 'run_command', args: { command: 'echo hi > note.txt' } }] },
          { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'written' } }] },
          { toolCalls: [{ name: 'final_answer', args: { answer: 'done' } }] },
        ],
      }),
    };
    const asked: Extract<ServerEvent, { type: 'agent_update'; update_type: 'approval_requested' }>[] = [];
    const run = await runWithHarness({
      model,
      planApprover: autoApprove,
      plan: 'always',
      safety: safetyOf({ mode: 'ask', allow: [], deny: [] }, { kind: 'none' }),
      approver: async (): Promise<RequestAnswer> => ({ kind: 'approval', decision: 'allow' }),
      onEvent: (event) => {
        if (event.type === 'agent_update' && event.update_type === 'approval_requested') asked.push(event);
      },
    });
    expect(run.result.status).toBe('completed');
    expect(asked.map((event) => [event.preview, event.check === true])).toEqual([
      ['echo hi > note.txt', false],
      ['test -s note.txt', true],
    ]);
  }, 60_000);
});
