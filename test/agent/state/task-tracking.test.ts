import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelTrackedApproval } from '../../../src/agent/orchestrator/plan-tool.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import type { ModelScriptInput } from '../../../src/model/script-schema.js';
import { autoApprove, eventKinds, runWithHarness } from '../../helpers/run-harness.js';

const plan = {
  name: 'plan_actions',
  args: {
    tasks: ['a', 'b'].map((id) => ({
      id,
      title: `Write ${id}.txt`,
      description: `Write ${id}.txt`,
      depends_on: [],
    })),
  },
};
const write = (file: string) => ({ name: 'write_file', args: { path: file, content: file } });

/** A model that plans two tasks, writes the first file, then declares the request done. */
const stopsEarly: ModelScriptInput['turns'] = [
  { toolCalls: [plan] },
  { task: 'a', toolCalls: [write('a.txt'), { name: 'task_completed', args: { summary: 'a.txt written' } }] },
  { task: 'b', toolCalls: [{ name: 'final_answer', args: { answer: 'Done.' } }] },
  { task: 'b', toolCalls: [write('b.txt'), { name: 'task_completed', args: { summary: 'b.txt written' } }] },
  { when: 'COMPLETED TASKS', toolCalls: [{ name: 'final_answer', args: { answer: 'Both files written.' } }] },
  // What the same model does when it keeps the plan itself: one conversation, no task tags.
  { when: 'Work through its tasks yourself', toolCalls: [write('a.txt')] },
  { when: 'Work through its tasks yourself', text: 'Done: a.txt is written.' },
];

function model() {
  return { id: 'script:test', model: ScriptModel.fromScript({ turns: stopsEarly }) };
}

const updateTypes = (events: ServerEvent[]) => eventKinds(events);

describe('task tracking', () => {
  it('model tracking: the approved plan is left to the model, whose early answer ends the run', async () => {
    const { result, events, workspace, store } = await runWithHarness({
      model: model(),
      planApprover: autoApprove,
      taskTracking: 'model',
      goal: 'write a.txt and b.txt',
    });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Done: a.txt is written.');
    const kinds = updateTypes(events);
    expect(kinds).toContain('plan_approved');
    expect(kinds).not.toContain('task_started');
    expect(kinds).not.toContain('final_answer_refused');
    const approval = events.find(
      (event) => event.type === 'tool_complete' && event.name === 'plan_actions',
    ) as Extract<ServerEvent, { type: 'tool_complete' }>;
    expect(approval.result).toBe(modelTrackedApproval());
    expect(await readFile(path.join(workspace.root, 'a.txt'), 'utf8')).toBe('a.txt');
    await expect(access(path.join(workspace.root, 'b.txt'))).rejects.toThrow();
    // Nothing will run the plan's tasks, so nothing may resume them.
    expect(await store.plans.unfinishedPlans()).toEqual([]);
  });

  it('orchestrator tracking (the default): the same model is refused and finishes both tasks', async () => {
    const { result, events, workspace } = await runWithHarness({
      model: model(),
      planApprover: autoApprove,
      goal: 'write a.txt and b.txt',
    });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Both files written.');
    expect(updateTypes(events).filter((kind) => kind === 'final_answer_refused')).toHaveLength(1);
    expect(await readFile(path.join(workspace.root, 'b.txt'), 'utf8')).toBe('b.txt');
  });
});
