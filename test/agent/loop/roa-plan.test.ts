import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStoredPlan } from '../../../src/agent/orchestrator/stored-plan.js';
import { resumePlan } from '../../../src/agent/run/run-agent.js';
import { RunControl } from '../../../src/agent/state/control.js';
import { Journal } from '../../../src/agent/state/journal.js';
import { EventBus } from '../../../src/events/bus.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import type { ModelScriptInput } from '../../../src/model/script-schema.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { Workspace } from '../../../src/tools/workspace/workspace.js';
import { autoApprove, eventKinds, runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';
import { runsEverything } from '../../helpers/safety.js';
import { updatesOf } from './roa-test-turns.js';

const reason = (plan: string) => ({
  text: `Thinking.\n\`\`\`json\n${JSON.stringify({ plan, tools_to_consider: [], finish: false })}\n\`\`\``,
});
const observation = (text: string, shouldContinue: boolean) => ({
  object: { observation: text, should_continue: shouldContinue, final_answer: null },
});

describe('roa inside a plan', () => {
  it('works each task with reason, act and observe; the orchestrator, not Observe, closes the task', async () => {
    const turns: ModelScriptInput['turns'] = [
      { phase: 'reason', ...reason('plan the work') },
      {
        phase: 'act',
        toolCalls: [
          {
            name: 'plan_actions',
            args: { tasks: [{ id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] }] },
          },
        ],
      },
      { phase: 'observe', ...observation('The plan was approved.', true) },
      { task: 'a', phase: 'reason', ...reason('write a.txt') },
      {
        task: 'a',
        phase: 'act',
        toolCalls: [
          { name: 'write_file', args: { path: 'a.txt', content: 'alpha\n' } },
          { name: 'final_answer', args: { answer: 'done already' } },
        ],
      },
      // Observe says the work is done, but the task is open: only a note, the task goes on.
      { task: 'a', phase: 'observe', ...observation('a.txt is written.', false) },
      { task: 'a', phase: 'reason', when: 'still open', ...reason('close the task') },
      { task: 'a', phase: 'act', toolCalls: [{ name: 'task_completed', args: { summary: 'wrote a.txt' } }] },
      { task: 'a', phase: 'observe', ...observation('The task is closed.', false) },
      { phase: 'act', toolCalls: [{ name: 'final_answer', args: { answer: 'All done.' } }] },
    ];
    const model = ScriptModel.fromScript({ turns });
    const { result, events, workspace } = await runWithHarness({
      model: { id: 'script:roa-plan', model },
      loop: 'roa',
      planApprover: autoApprove,
    });
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'All done.' });
    expect(model.remainingTurns).toBe(0);
    expect(await readFile(path.join(workspace.root, 'a.txt'), 'utf8')).toBe('alpha\n');

    const kinds = eventKinds(events);
    expect(kinds).toContain('plan_approved');
    expect(updatesOf(events, 'final_answer_refused')).toHaveLength(1);
    expect(updatesOf(events, 'task_completed')).toEqual([
      expect.objectContaining({ task_id: 'a', summary: 'wrote a.txt' }),
    ]);
    const notes = updatesOf(events, 'agent_note').map((event) => 'content' in event && event.content);
    expect(notes).toEqual([expect.stringContaining('Your observation says the current task is done')]);
    const taskPhases = updatesOf(events, 'model_usage')
      .filter((event) => 'task_id' in event && event.task_id === 'a')
      .map((event) => 'phase' in event && event.phase);
    expect(taskPhases).toEqual(['reason', 'act', 'observe', 'reason', 'act', 'observe']);
    expect(
      updatesOf(events, 'agent_observe').filter((event) => 'task_id' in event && event.task_id === 'a'),
    ).toHaveLength(2);
  });

  it('keeps the loop when a stored plan is resumed', async () => {
    // A plan an earlier process left with task a completed and task b to do.
    const store = openSqliteStore({ path: ':memory:' });
    const session = await store.sessions.createSession({
      title: 't',
      goal: 'g',
      workspace: '/w',
      model: 'm',
    });
    const earlier = await store.sessions.createRun({
      sessionId: session.id,
      goal: 'write a.txt and b.txt',
      mode: 'complex',
    });
    const { plan, tasks } = await store.plans.createPlan({
      sessionId: session.id,
      runId: earlier.id,
      tasks: [
        { key: 'a', title: 'Write a.txt', description: 'Write a.txt', dependsOn: [] },
        { key: 'b', title: 'Write b.txt', description: 'Write b.txt', dependsOn: ['a'] },
      ],
    });
    await store.plans.setPlanStatus(plan.id, 'approved');
    await store.tasks.settle(tasks[0]!.id, 'complete', 'wrote a.txt');
    const model = ScriptModel.fromScript({
      turns: [
        { task: 'b', phase: 'reason', ...reason('write b.txt') },
        {
          task: 'b',
          phase: 'act',
          toolCalls: [
            { name: 'write_file', args: { path: 'b.txt', content: 'beta\n' } },
            { name: 'task_completed', args: { summary: 'wrote b.txt' } },
          ],
        },
        { task: 'b', phase: 'observe', ...observation('b.txt is written.', false) },
        { phase: 'act', toolCalls: [{ name: 'final_answer', args: { answer: 'Both done.' } }] },
      ],
    });
    const bus = new EventBus();
    const events: ServerEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const result = await resumePlan(
      {
        model: { id: 'script:resume', model },
        workspace: await Workspace.open(await tempWorkspaceRoot()),
        journal: new Journal({ sessionId: session.id, store, bus }),
        store,
        control: new RunControl(),
        safety: runsEverything(),
        loop: 'roa',
      },
      await loadStoredPlan(store, plan.id),
    );
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Both done.' });
    expect(events[0]).toMatchObject({ update_type: 'agent_start', loop: 'roa', mode: 'complex' });
    const phases = updatesOf(events, 'model_usage').map((event) => 'phase' in event && event.phase);
    expect(phases).toEqual(['reason', 'act', 'observe', 'act']);
    expect(model.remainingTurns).toBe(0);
  });
});
