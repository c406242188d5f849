import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINAL_ANSWER_REFUSAL_LIMIT } from '../../../src/agent/orchestrator/plan-run.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { loadScriptModel, ScriptModel } from '../../../src/model/script-model.js';
import type { ModelScriptInput } from '../../../src/model/script-schema.js';
import type { FailureDecision } from '../../../src/plan/scheduler.js';
import { autoApprove, eventKinds, type PlanApprover, runWithHarness } from '../../helpers/run-harness.js';

function script(turns: ModelScriptInput['turns'], latencyMs = 0) {
  return { id: 'script:test', model: ScriptModel.fromScript({ latencyMs, turns }) };
}

function updates(events: ServerEvent[], kind: string) {
  return events.filter((event) => event.type === 'agent_update' && event.update_type === kind) as Extract<
    ServerEvent,
    { type: 'agent_update' }
  >[];
}

function taskEvent(events: ServerEvent[], kind: string, taskId: string): ServerEvent {
  const found = events.find(
    (event) =>
      event.type === 'agent_update' &&
      event.update_type === kind &&
      'task_id' in event &&
      event.task_id === taskId,
  );
  if (!found) throw new Error(`no ${kind} event for task ${taskId}`);
  return found;
}

const plan = (tasks: { id: string; depends_on?: string[]; check?: string }[]) => ({
  name: 'plan_actions',
  args: {
    tasks: tasks.map((task) => ({
      id: task.id,
      title: `Task ${task.id}`,
      description: `Do ${task.id}`,
      depends_on: task.depends_on ?? [],
      ...(task.check ? { check: task.check } : {}),
    })),
  },
});
const write = (file: string, content = file) => ({ name: 'write_file', args: { path: file, content } });
const done = (summary: string) => ({ name: 'task_completed', args: { summary } });
const finalTurn = { toolCalls: [{ name: 'final_answer', args: { answer: 'All done.' } }] };

describe('complex mode', () => {
  it('webapp: refuses the early final answer, finishes every task, and the files exist', async () => {
    const model = { id: 'script:webapp', model: await loadScriptModel(path.resolve('examples/webapp.json')) };
    const { result, events, workspace } = await runWithHarness({
      model,
      planApprover: autoApprove,
      goal: 'Create a TypeScript project called webapp, write src/index.ts with a main function, write public/index.html',
    });
    expect(result.status).toBe('completed');
    const refused = updates(events, 'final_answer_refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ remaining: 2 });
    expect(updates(events, 'task_completed').map((event) => 'task_id' in event && event.task_id)).toEqual(
      expect.arrayContaining(['project', 'index', 'html']),
    );
    const kinds = eventKinds(events);
    expect(kinds.indexOf('plan_proposed')).toBeLessThan(kinds.indexOf('plan_approved'));
    expect(kinds.indexOf('plan_approved')).toBeLessThan(kinds.indexOf('task_started'));
    for (const file of [
      'webapp/package.json',
      'webapp/tsconfig.json',
      'webapp/src/index.ts',
      'webapp/public/index.html',
    ]) {
      await access(path.join(workspace.root, file));
    }
    expect(await readFile(path.join(workspace.root, 'webapp/src/index.ts'), 'utf8')).toContain(
      'export function main',
    );
    expect(result.finalAnswer).toContain('webapp');
  });

  it('runs a diamond of 5 tasks in dependency order, the independent ones overlapping in time', async () => {
    const model = script(
      [
        {
          toolCalls: [
            plan([
              { id: 'a' },
              { id: 'b', depends_on: ['a'] },
              { id: 'c', depends_on: ['a'] },
              { id: 'd', depends_on: ['a'] },
              { id: 'e', depends_on: ['b', 'c', 'd'] },
            ]),
          ],
        },
        ...['a', 'b', 'c', 'd', 'e'].map((id) => ({
          task: id,
          toolCalls: [write(`${id}.txt`), done(`wrote ${id}`)],
        })),
        finalTurn,
      ],
      150,
    );
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    const ts = (kind: string, id: string) => taskEvent(events, kind, id).ts;
    for (const id of ['b', 'c', 'd']) {
      expect(ts('task_started', id)).toBeGreaterThanOrEqual(ts('task_completed', 'a'));
      expect(ts('task_started', 'e')).toBeGreaterThanOrEqual(ts('task_completed', id));
    }
    // b, c and d overlap: each started before any of them completed.
    const lastStart = Math.max(...['b', 'c', 'd'].map((id) => ts('task_started', id)));
    const firstEnd = Math.min(...['b', 'c', 'd'].map((id) => ts('task_completed', id)));
    expect(lastStart).toBeLessThan(firstEnd);
    const tasksOnEvents = events
      .filter((event) => event.type === 'tool_start')
      .map((event) => 'task_id' in event && event.task_id);
    expect(tasksOnEvents.filter(Boolean)).toHaveLength(10);
  });

  it('gives each parallel task its own step numbers: its text, tool calls and notes carry the step it started', async () => {
    // Two tasks that start together and take turns: each step of one begins while the other's
    // step is under way, so a step number read again after an await would be the other task's.
    const model = script(
      [
        { toolCalls: [plan([{ id: 'lint' }, { id: 'docs' }])] },
        // Different latencies per task and turn, so the two tasks' steps overlap unevenly.
        ...(
          [
            ['lint', 10, 60],
            ['docs', 60, 10],
          ] as const
        ).flatMap(([id, first, second]) => [
          { task: id, latencyMs: first, text: `Looking at ${id}.`, toolCalls: [write(`${id}-1.txt`)] },
          {
            task: id,
            latencyMs: second,
            text: `Finishing ${id}.`,
            toolCalls: [write(`${id}-2.txt`), done(`did ${id}`)],
          },
        ]),
        finalTurn,
      ],
      30,
    );
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    const currentStep = new Map<string, number>();
    const checked: string[] = [];
    for (const event of events) {
      const taskId = 'task_id' in event ? event.task_id : undefined;
      if (taskId === undefined || !('step' in event)) continue;
      if (event.type === 'agent_update' && event.update_type === 'agent_turn_start') {
        currentStep.set(taskId, event.step);
        continue;
      }
      const label = event.type === 'agent_update' ? event.update_type : event.type;
      expect(event.step, `${label} of ${taskId}`).toBe(currentStep.get(taskId));
      checked.push(`${taskId}:${label}`);
    }
    // Both tasks' text and tool calls were checked, and the two tasks' steps interleaved.
    for (const id of ['lint', 'docs']) {
      expect(checked).toContain(`${id}:agent_text_delta`);
      expect(checked).toContain(`${id}:tool_start`);
    }
    const starts = events.flatMap((event) =>
      event.type === 'agent_update' && event.update_type === 'agent_turn_start' && event.task_id !== undefined
        ? [event.step]
        : [],
    );
    expect(new Set(starts).size).toBe(starts.length);
  });

  it('a refused final answer of a parallel task carries the step of its call, not the other task’s', async () => {
    // lint answers early and fast; docs starts its second step while lint's answer is judged, so
    // the run's step counter then names a docs step.
    const model = script([
      { toolCalls: [plan([{ id: 'lint' }, { id: 'docs' }])] },
      {
        task: 'lint',
        latencyMs: 40,
        toolCalls: [{ name: 'final_answer', args: { answer: 'lint is done, so all is done' } }],
      },
      { task: 'lint', latencyMs: 10, toolCalls: [write('lint.txt'), done('did lint')] },
      { task: 'docs', latencyMs: 5, toolCalls: [write('docs-1.txt')] },
      { task: 'docs', latencyMs: 80, toolCalls: [write('docs-2.txt'), done('did docs')] },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    const call = events.find(
      (event) => event.type === 'tool_start' && event.name === 'final_answer' && event.task_id === 'lint',
    );
    const [refused] = updates(events, 'final_answer_refused');
    expect(call && 'step' in call ? call.step : undefined).toBeDefined();
    expect(refused && 'step' in refused ? refused.step : undefined).toBe(
      call && 'step' in call ? call.step : undefined,
    );
    // The other task had started a later step by then: reading the run's counter would differ.
    const docsStepsBefore = events
      .slice(0, events.indexOf(refused as ServerEvent))
      .filter(
        (event) =>
          event.type === 'agent_update' &&
          event.update_type === 'agent_turn_start' &&
          event.task_id === 'docs',
      )
      .map((event) => ('step' in event ? event.step : 0));
    expect(Math.max(...docsStepsBefore)).toBeGreaterThan(refused && 'step' in refused ? refused.step : 0);
  });

  it('sends an invalid plan back to the model, which fixes it', async () => {
    const model = script([
      {
        toolCalls: [
          plan([
            { id: 'a', depends_on: ['b'] },
            { id: 'b', depends_on: ['a'] },
          ]),
        ],
      },
      { when: 'a → b → a', toolCalls: [plan([{ id: 'a' }])] },
      { task: 'a', toolCalls: [write('a.txt'), done('wrote a')] },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    expect(updates(events, 'plan_proposed')).toHaveLength(1);
    expect(
      events.find((event) => event.type === 'tool_error' && event.name === 'plan_actions'),
    ).toBeDefined();
  });

  it('revises a rejected plan with the user feedback', async () => {
    const decisions: Awaited<ReturnType<PlanApprover>>[] = [
      { decision: 'reject', feedback: 'also write b' },
      { decision: 'approve' },
    ];
    const model = script([
      { toolCalls: [plan([{ id: 'a' }])] },
      { when: 'also write b', toolCalls: [plan([{ id: 'a' }, { id: 'b' }])] },
      { task: 'a', toolCalls: [write('a.txt'), done('wrote a')] },
      { task: 'b', toolCalls: [write('b.txt'), done('wrote b')] },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({
      model,
      planApprover: async () => decisions.shift() ?? null,
    });
    expect(result.status).toBe('completed');
    expect(updates(events, 'plan_rejected')[0]).toMatchObject({ feedback: 'also write b' });
    expect(updates(events, 'task_completed')).toHaveLength(2);
  });

  it('ends with needs_input after plan_proposed when no one can approve, and changes nothing', async () => {
    const model = script([{ toolCalls: [plan([{ id: 'a' }])] }, { task: 'a', toolCalls: [write('a.txt')] }]);
    const { result, events } = await runWithHarness({ model });
    expect(result.status).toBe('needs_input');
    const kinds = eventKinds(events);
    expect(kinds).toContain('plan_proposed');
    expect(kinds).not.toContain('task_started');
    expect(kinds).not.toContain('plan_approved');
  });

  const failingPlan = [
    { toolCalls: [plan([{ id: 'a' }, { id: 'b', depends_on: ['a'] }, { id: 'c' }])] },
    { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the API key is missing' } }] },
    { task: 'c', toolCalls: [write('c.txt'), done('wrote c')] },
  ];

  it('aborts on a failed task by default: dependents blocked, independent tasks complete', async () => {
    const model = script(failingPlan);
    const { result, events, workspace } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('failed');
    expect(result.reason).toContain('the API key is missing');
    expect(updates(events, 'task_failed')[0]).toMatchObject({
      task_id: 'a',
      reason: 'the API key is missing',
    });
    expect(updates(events, 'task_blocked')[0]).toMatchObject({ task_id: 'b' });
    await access(path.join(workspace.root, 'c.txt'));
    expect(eventKinds(events).filter((kind) => kind === 'task_started')).toHaveLength(2);
  });

  it('skips a failed task when told to, and its dependents run', async () => {
    const model = script([
      ...failingPlan,
      { task: 'b', toolCalls: [write('b.txt'), done('wrote b')] },
      finalTurn,
    ]);
    const { result, workspace, events } = await runWithHarness({
      model,
      planApprover: autoApprove,
      onFailure: 'skip',
    });
    expect(result.status).toBe('completed');
    expect(updates(events, 'task_skipped')[0]).toMatchObject({ task_id: 'a' });
    await access(path.join(workspace.root, 'b.txt'));
  });

  it('retries a failed task when the user says so', async () => {
    const asked: string[] = [];
    const model = script([
      ...failingPlan,
      { task: 'a', toolCalls: [write('a.txt'), done('wrote a on the second try')] },
      { task: 'b', toolCalls: [write('b.txt'), done('wrote b')] },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({
      model,
      planApprover: autoApprove,
      failureChooser: async (info): Promise<FailureDecision> => {
        asked.push(
          `${info.task.id}: ${info.reason}; blocked ${info.blocked.map((task) => task.id).join(',')}`,
        );
        return { action: 'retry' };
      },
    });
    expect(result.status).toBe('completed');
    expect(asked).toEqual(['a: the API key is missing; blocked b']);
    expect(
      updates(events, 'task_completed')
        .map((event) => 'task_id' in event && event.task_id)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
  });

  it('revises the plan after a failure: the model plans the rest, which runs after approval', async () => {
    const model = script([
      ...failingPlan,
      { phase: 'plan', when: 'the API key is missing', toolCalls: [plan([{ id: 'fallback' }])] },
      { task: 'fallback', toolCalls: [write('fallback.txt'), done('used the fallback')] },
      finalTurn,
    ]);
    const { result, events, workspace } = await runWithHarness({
      model,
      planApprover: autoApprove,
      failureChooser: async () => ({ action: 'revise' }),
    });
    expect(result.status).toBe('completed');
    expect(updates(events, 'plan_approved')).toHaveLength(2);
    await access(path.join(workspace.root, 'fallback.txt'));
  });

  it('closes a task with a check only when the check passes', async () => {
    const model = script([
      { toolCalls: [plan([{ id: 'a', check: 'test -f ready.txt' }])] },
      { task: 'a', toolCalls: [done('nothing needed')] },
      {
        task: 'a',
        when: 'test -f ready.txt` failed',
        toolCalls: [write('ready.txt', 'yes'), done('wrote ready.txt')],
      },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    const checks = events.filter(
      (event) => event.type === 'tool_start' && event.call_id.startsWith('check-'),
    );
    expect(checks).toHaveLength(2);
    expect(updates(events, 'task_completed')[0]).toMatchObject({ summary: 'wrote ready.txt' });
  });

  it(`asks the user after ${FINAL_ANSWER_REFUSAL_LIMIT} refused final answers`, async () => {
    const early = { task: 'a', toolCalls: [{ name: 'final_answer', args: { answer: 'done already' } }] };
    const questions: string[] = [];
    const model = script([
      { toolCalls: [plan([{ id: 'a' }, { id: 'b', depends_on: ['a'] }])] },
      early,
      early,
      early,
      { task: 'a', when: 'The user said: finish task a', toolCalls: [write('a.txt'), done('wrote a')] },
      { task: 'b', toolCalls: [write('b.txt'), done('wrote b')] },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({
      model,
      planApprover: autoApprove,
      inputProvider: async (request) => {
        questions.push(request.question);
        return 'finish task a';
      },
    });
    expect(result.status).toBe('completed');
    expect(updates(events, 'final_answer_refused')).toHaveLength(3);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('tried to end the run 3 times');
  });

  it('--plan always asks for a plan first (phase plan); --plan never hides the tool', async () => {
    const always = script([
      { phase: 'plan', toolCalls: [plan([{ id: 'a' }])] },
      { task: 'a', toolCalls: [write('a.txt'), done('wrote a')] },
      finalTurn,
    ]);
    const planned = await runWithHarness({ model: always, plan: 'always', planApprover: autoApprove });
    expect(planned.result.status).toBe('completed');
    expect(updates(planned.events, 'agent_start')[0]).toMatchObject({ mode: 'complex' });

    const never = script([{ toolCalls: [plan([{ id: 'a' }])] }, { text: 'fine' }]);
    const direct = await runWithHarness({ model: never, plan: 'never', planApprover: autoApprove });
    expect(direct.result.status).toBe('completed');
    expect(direct.events.find((event) => event.type === 'tool_error')).toMatchObject({
      name: 'plan_actions',
    });
  });
});

describe('the JSON protocol', () => {
  it('runs tools from JSON replies and ends with the final_answer field (simple mode)', async () => {
    const model = script([
      {
        object: {
          reasoning: 'Write the file.',
          tool_calls: [{ name: 'write_file', args: { path: 'j.txt', content: 'json' } }],
        },
      },
      { when: 'Created j.txt', object: { tool_calls: [], final_answer: 'Wrote j.txt.' } },
    ]);
    const { result, events, workspace } = await runWithHarness({ model, protocol: 'json', plan: 'never' });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Wrote j.txt.');
    expect(await readFile(path.join(workspace.root, 'j.txt'), 'utf8')).toBe('json');
    expect(updates(events, 'agent_reason')[0]).toMatchObject({ content: 'Write the file.' });
  });

  it('sends an unreadable reply back with the parse error, and the plan semantics hold', async () => {
    const model = script([
      { text: 'Sure! I will plan now.' },
      { when: 'not a valid JSON object', object: { tool_calls: [plan([{ id: 'a' }, { id: 'b' }])] } },
      { task: 'a', object: { tool_calls: [], final_answer: 'all done' } },
      { task: 'a', when: 'Refused', object: { tool_calls: [write('a.txt')], task_completed: 'wrote a' } },
      {
        task: 'b',
        text: '```json\n{ "tool_calls": [{ "name": "write_file", "args": { "path": "b.txt", "content": "b" } }], "task_completed": "wrote b", }\n```',
      },
      { object: { final_answer: 'Both written.' } },
    ]);
    const { result, events } = await runWithHarness({ model, protocol: 'json', planApprover: autoApprove });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Both written.');
    expect(updates(events, 'final_answer_refused')).toHaveLength(1);
    expect(updates(events, 'agent_note')[0]).toMatchObject({
      content: expect.stringContaining('could not be read'),
    });
  });
});

describe('complex mode, more rules', () => {
  it('does not close a task when a call in the same reply failed', async () => {
    const model = script([
      { toolCalls: [plan([{ id: 'a' }])] },
      { task: 'a', toolCalls: [{ name: 'run_command', args: { command: 'exit 2' } }, done('built it')] },
      {
        task: 'a',
        when: 'The task was not closed',
        toolCalls: [write('fixed.txt'), done('fixed and built')],
      },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    expect(updates(events, 'task_completed')[0]).toMatchObject({ summary: 'fixed and built' });
  });

  it('keeps the repetition rule per task: parallel tasks reading the same file are not "repeating"', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const model = script([
      { toolCalls: [plan(ids.map((id) => ({ id })))] },
      ...ids.map((id) => ({ task: id, toolCalls: [{ name: 'search_code', args: { pattern: 'shared' } }] })),
      ...ids.map((id) => ({ task: id, toolCalls: [done(`looked for ${id}`)] })),
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove, concurrency: 5 });
    expect(result.status, result.reason).toBe('completed');
    expect(updates(events, 'agent_note')).toHaveLength(0);
  });

  it('does not count a final answer given while only the current task is open towards asking the user', async () => {
    const early = { task: 'a', toolCalls: [{ name: 'final_answer', args: { answer: 'done' } }] };
    const asked: string[] = [];
    const model = script([
      { toolCalls: [plan([{ id: 'a' }])] },
      early,
      early,
      early,
      { task: 'a', toolCalls: [done('wrote a')] },
      finalTurn,
    ]);
    const { result, events } = await runWithHarness({
      model,
      planApprover: autoApprove,
      inputProvider: async (request) => {
        asked.push(request.question);
        return 'go on';
      },
    });
    expect(result.status).toBe('completed');
    expect(updates(events, 'final_answer_refused')).toHaveLength(3);
    expect(asked).toEqual([]);
  });
});

describe('complex mode and the read-before-edit rule', () => {
  it('makes each task read a file before editing it, even one another task wrote', async () => {
    const edit = {
      name: 'edit_file',
      args: { path: 'config.ts', edits: [{ find: 'port = 3000', replace: 'port = 8080' }] },
    };
    const model = script([
      { toolCalls: [plan([{ id: 'w' }, { id: 'e', depends_on: ['w'] }])] },
      { task: 'w', toolCalls: [write('config.ts', 'export const port = 3000;\n'), done('wrote config.ts')] },
      { task: 'e', toolCalls: [edit] },
      {
        task: 'e',
        when: 'has not been read',
        toolCalls: [{ name: 'read_file', args: { path: 'config.ts' } }, edit, done('set the port')],
      },
      finalTurn,
    ]);
    const { result, events, workspace } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    const edits = events.filter(
      (event) =>
        (event.type === 'tool_error' || event.type === 'tool_complete') && event.name === 'edit_file',
    );
    expect(edits.map((event) => event.type)).toEqual(['tool_error', 'tool_complete']);
    expect(await readFile(path.join(workspace.root, 'config.ts'), 'utf8')).toBe(
      'export const port = 8080;\n',
    );
  });
});
