import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventPayload, ServerEvent } from '../../src/events/registry.js';
import { emptySessionView, foldSessionEvent, foldSessionEvents } from '../../src/events/session-view.js';
import {
  isRunning,
  itemsOfTask,
  latestPlan,
  openFailure,
  openQuestion,
  planAwaitingDecision,
} from '../../src/events/session-view-select.js';

/** The events of a real `taskweave run --json` of examples/webapp.json (a plan of three tasks). */
const WEBAPP_RUN: ServerEvent[] = readFileSync(
  new URL('./fixtures/webapp-run.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

/** Stamps payloads as the store would: one session, one run, seq 1, 2, 3… */
function stamp(payloads: EventPayload[], options: { runId?: string; firstSeq?: number } = {}): ServerEvent[] {
  const first = options.firstSeq ?? 1;
  return payloads.map((payload, index) => ({
    ...payload,
    session_id: 'ses_1',
    run_id: options.runId ?? 'run_1',
    seq: first + index,
    ts: 1000 + first + index,
  }));
}

const START: EventPayload = {
  type: 'agent_update',
  update_type: 'agent_start',
  max_steps: 20,
  mode: 'simple',
  loop: 'react',
  model: 'script:x.json',
  goal: 'fix the build',
};

const PLAN: EventPayload = {
  type: 'agent_update',
  update_type: 'plan_proposed',
  plan_id: 'plan_1',
  tasks: [
    { id: 'a', title: 'A', description: 'first', depends_on: [] },
    { id: 'b', title: 'B', description: 'after a', depends_on: ['a'] },
    { id: 'c', title: 'C', description: 'after b', depends_on: ['b'], check: 'npm test' },
    { id: 'd', title: 'D', description: 'alone', depends_on: [] },
  ],
};

describe('foldSessionEvents (a session view from its events)', () => {
  it('folds a real plan run: goal, step cards with task labels, plan nodes completed, tokens, completion', () => {
    const view = foldSessionEvents(WEBAPP_RUN);
    expect(view.items[0]).toMatchObject({ kind: 'goal', goal: 'Create webapp' });
    const steps = view.items.filter((item) => item.kind === 'step');
    expect(steps.map((step) => [step.step, step.taskId])).toEqual([
      [1, undefined],
      [2, 'project'],
      [3, 'index'],
      [4, 'html'],
      [5, 'index'],
      [6, undefined],
    ]);
    expect(steps[0]).toMatchObject({ text: 'This request has three parts; I will plan them.' });
    // Under react agent_reason repeats the streamed text: it is not shown twice.
    expect(steps[0]?.reason).toBeUndefined();
    expect(steps[1]?.tools.map((call) => [call.name, call.status, call.display])).toEqual([
      ['write_file', 'ok', 'created, 13 lines'],
      ['write_file', 'ok', 'created, 13 lines'],
      ['task_completed', 'ok', undefined],
      ['run_command', 'ok', 'exit 0 · 63ms'],
    ]);
    expect(steps[2]?.refusedRemaining).toBe(2);
    const plan = latestPlan(view)!;
    expect(plan.status).toBe('ended');
    expect(Object.values(plan.nodes).map((node) => node.state)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    expect(plan.criticalPath).toEqual(['project', 'index']);
    expect(plan.nodes.index?.summary).toContain('main function');
    const completion = view.items.at(-1);
    expect(completion).toMatchObject({ kind: 'completion', status: 'completed', steps: 6 });
    const usage = steps.reduce((sum, step) => sum + step.usage.input, 0);
    expect(view.usage.input).toBe(usage);
    expect(completion?.kind === 'completion' && completion.usage.input).toBe(usage);
    expect(isRunning(view)).toBe(false);
    expect(view.runningTools).toBe(0);
    expect(view.lastSeq).toBe(WEBAPP_RUN.at(-1)?.seq);
  });

  it('shows the same view when a replay overlaps what was already folded (no gap, no duplicate)', () => {
    const whole = foldSessionEvents(WEBAPP_RUN);
    const cut = 40;
    const live = foldSessionEvents(WEBAPP_RUN.slice(0, cut));
    // After a reconnect the server replays from the last seq the client saw, and live events may repeat.
    const replayed = foldSessionEvents(WEBAPP_RUN.slice(cut - 5), live);
    expect(replayed).toEqual(whole);
    expect(foldSessionEvent(whole, WEBAPP_RUN[10]!)).toBe(whole);
  });

  it('marks a step running tools, collects progress, and tells a failed call by its error', () => {
    const events = stamp([
      START,
      { type: 'agent_update', update_type: 'agent_turn_start', step: 1 },
      { type: 'tool_start', call_id: 'c1', name: 'run_command', args: { command: 'npm run build' }, step: 1 },
      { type: 'tool_progress', call_id: 'c1', name: 'run_command', content: 'error TS2322' },
    ]);
    const running = foldSessionEvents(events);
    expect(running.runningTools).toBe(1);
    expect(isRunning(running)).toBe(true);
    const failed = foldSessionEvents(
      stamp(
        [
          {
            type: 'tool_error',
            call_id: 'c1',
            name: 'run_command',
            error: 'Exit code: 2',
            display: 'exit 2 · 2.7s',
            duration_ms: 2700,
          },
        ],
        { firstSeq: 5 },
      ),
      running,
    );
    const step = failed.items.find((item) => item.kind === 'step');
    expect(step?.kind === 'step' && step.tools[0]).toMatchObject({
      status: 'error',
      output: 'Exit code: 2',
      display: 'exit 2 · 2.7s',
      progress: ['error TS2322'],
    });
    expect(failed.runningTools).toBe(0);
  });

  it('voids the streamed text of a step that is retried, and keeps the retry and notes on its card', () => {
    const view = foldSessionEvents(
      stamp([
        START,
        { type: 'agent_update', update_type: 'agent_turn_start', step: 1 },
        { type: 'agent_update', update_type: 'agent_text_delta', step: 1, content: 'half a sen' },
        {
          type: 'agent_update',
          update_type: 'agent_retry',
          step: 1,
          attempt: 1,
          delay_ms: 1000,
          error: '429',
        },
        { type: 'agent_update', update_type: 'agent_text_delta', step: 1, content: 'Whole.' },
        { type: 'agent_update', update_type: 'agent_note', step: 1, content: 'You are repeating yourself.' },
        { type: 'agent_update', update_type: 'agent_reason', step: 1, content: 'Thinking it through (roa).' },
        {
          type: 'agent_update',
          update_type: 'agent_observe',
          step: 1,
          content: 'Done.',
          should_continue: false,
        },
      ]),
    );
    const step = view.items[1];
    expect(step).toMatchObject({
      kind: 'step',
      text: 'Whole.',
      retries: [{ attempt: 1, delayMs: 1000, error: '429' }],
      notes: ['You are repeating yourself.'],
      reason: 'Thinking it through (roa).',
      observe: { content: 'Done.', shouldContinue: false },
    });
  });

  it('keeps a question open until it is answered or times out, and only while its run goes on', () => {
    const asked = foldSessionEvents(
      stamp([
        START,
        {
          type: 'agent_update',
          update_type: 'agent_request_input',
          step: 1,
          request_id: 'r1',
          question: 'Which port?',
        },
      ]),
    );
    expect(openQuestion(asked)).toMatchObject({ requestId: 'r1', question: 'Which port?' });
    const answered = foldSessionEvents(
      stamp([{ type: 'agent_update', update_type: 'agent_user_input', request_id: 'r1', content: '8080' }], {
        firstSeq: 3,
      }),
      asked,
    );
    expect(openQuestion(answered)).toBeUndefined();
    expect(answered.items.at(-1)).toMatchObject({ kind: 'question', answer: '8080' });
    const timedOut = foldSessionEvents(
      stamp([{ type: 'agent_update', update_type: 'agent_request_input_timeout', request_id: 'r1' }], {
        firstSeq: 3,
      }),
      asked,
    );
    expect(openQuestion(timedOut)).toBeUndefined();
    expect(timedOut.items.at(-1)).toMatchObject({ kind: 'question', timedOut: true });
    // A run that ended waiting for the answer: it can still be given (a worker goes on with it).
    const ended = foldSessionEvents(
      stamp([{ type: 'response_complete', status: 'needs_input' }], { firstSeq: 3 }),
      asked,
    );
    expect(openQuestion(ended)?.question).toBe('Which port?');
    const stopped = foldSessionEvents(
      stamp([{ type: 'response_complete', status: 'stopped' }], { firstSeq: 3 }),
      asked,
    );
    expect(openQuestion(stopped)).toBeUndefined();
  });

  it('folds a plan: proposed awaits a decision, rejected keeps the feedback, the revision runs', () => {
    const proposed = foldSessionEvents(stamp([START, PLAN]));
    expect(planAwaitingDecision(proposed)?.planId).toBe('plan_1');
    expect(proposed.plans[0]?.criticalPath).toEqual(['a', 'b', 'c']);
    expect(Object.values(proposed.plans[0]!.nodes).every((node) => node.state === 'pending')).toBe(true);
    const revised = foldSessionEvents(
      stamp(
        [
          { type: 'agent_update', update_type: 'plan_rejected', plan_id: 'plan_1', feedback: 'drop D' },
          { ...PLAN, plan_id: 'plan_2', tasks: PLAN.tasks.slice(0, 3) } as EventPayload,
        ],
        { firstSeq: 3 },
      ),
      proposed,
    );
    expect(revised.plans.map((plan) => [plan.planId, plan.status, plan.feedback])).toEqual([
      ['plan_1', 'rejected', 'drop D'],
      ['plan_2', 'proposed', undefined],
    ]);
    expect(planAwaitingDecision(revised)?.planId).toBe('plan_2');
  });

  it('shows tasks running in parallel, a failure decision with blocked tasks, and frees them on skip', () => {
    const events = stamp([
      START,
      PLAN,
      { type: 'agent_update', update_type: 'plan_approved', plan_id: 'plan_1' },
      { type: 'agent_update', update_type: 'task_started', task_id: 'a', title: 'A' },
      { type: 'agent_update', update_type: 'task_started', task_id: 'd', title: 'D' },
      { type: 'agent_update', update_type: 'agent_turn_start', step: 1, task_id: 'a' },
      { type: 'agent_update', update_type: 'agent_turn_start', step: 2, task_id: 'd' },
      {
        type: 'agent_update',
        update_type: 'task_failed',
        task_id: 'a',
        title: 'A',
        reason: 'npm test failed',
      },
      { type: 'agent_update', update_type: 'task_blocked', task_id: 'b', title: 'B', reason: 'waits for a' },
      { type: 'agent_update', update_type: 'task_blocked', task_id: 'c', title: 'C', reason: 'waits for a' },
      {
        type: 'agent_update',
        update_type: 'failure_decision_requested',
        request_id: 'f1',
        task_id: 'a',
        reason: 'npm test failed',
        blocked: ['b', 'c'],
        choices: ['retry', 'skip', 'revise', 'abort'],
      },
    ]);
    const running = foldSessionEvents(events.slice(0, 5));
    const nodes = running.plans[0]!.nodes;
    expect([nodes.a?.state, nodes.d?.state, nodes.b?.state]).toEqual([
      'in_progress',
      'in_progress',
      'pending',
    ]);
    expect(nodes.a?.startedAt).toBe(events[3]!.ts);

    const failed = foldSessionEvents(events);
    expect(openFailure(failed)).toMatchObject({
      taskId: 'a',
      title: 'A',
      reason: 'npm test failed',
      blocked: [
        { id: 'b', title: 'B' },
        { id: 'c', title: 'C' },
      ],
    });
    expect(itemsOfTask(failed, 'd').map((item) => item.kind)).toEqual(['task', 'step']);

    const skipped = foldSessionEvents(
      stamp([{ type: 'agent_update', update_type: 'task_skipped', task_id: 'a', title: 'A' }], {
        firstSeq: 12,
      }),
      failed,
    );
    expect(openFailure(skipped)).toBeUndefined();
    const after = skipped.plans[0]!.nodes;
    expect([after.a?.state, after.b?.state, after.c?.state]).toEqual(['skipped', 'pending', 'pending']);
  });

  it('keeps one view per run of a session and totals the tokens of all of them', () => {
    const usage = (step: number): EventPayload => ({
      type: 'agent_update',
      update_type: 'model_usage',
      step,
      phase: 'act',
      input_tokens: 100,
      output_tokens: 10,
    });
    const first = stamp([START, usage(1), { type: 'response_complete', status: 'stopped' }]);
    const second = stamp([{ ...START, goal: 'go on' } as EventPayload, usage(1)], {
      runId: 'run_2',
      firstSeq: 4,
    });
    const view = foldSessionEvents([...first, ...second]);
    expect(view.runs.map((run) => [run.goal, run.status, run.usage.input])).toEqual([
      ['fix the build', 'stopped', 100],
      ['go on', 'running', 100],
    ]);
    expect(view.usage).toEqual({ input: 200, output: 20 });
    expect(view.items.filter((item) => item.kind === 'step')).toHaveLength(2);
  });

  it('ends a run a killed process left running when the session’s next run starts; a continued run opens with a notice, not its goal again', () => {
    const note: EventPayload = {
      type: 'agent_update',
      update_type: 'agent_note',
      step: 0,
      content: 'Sandbox: on',
    };
    const killed = stamp([
      START,
      note,
      { type: 'agent_update', update_type: 'agent_turn_start', step: 1 },
      { type: 'tool_start', call_id: 'c1', name: 'run_command', args: { command: 'sleep 60' }, step: 1 },
    ]);
    const continued = stamp([{ ...START, continued: true } as EventPayload], { runId: 'run_2', firstSeq: 5 });
    const view = foldSessionEvents([...killed, ...continued]);
    expect(view.runs.map((run) => [run.goal, run.status])).toEqual([
      ['fix the build', 'stopped'],
      ['fix the build', 'running'],
    ]);
    expect(view.items.map((item) => item.kind)).toEqual(['goal', 'notice', 'step', 'notice']);
    const step = view.items.find((item) => item.kind === 'step');
    expect(step?.kind === 'step' && step.tools[0]?.status).toBe('error');
    expect(view.runningTools).toBe(0);
    // What taskweave says before the first step is a notice, not a "Step 0" card.
    expect(view.items.filter((item) => item.kind === 'step').map((item) => item.step)).toEqual([1]);
  });

  it('shows messages not from the log (seq 0) every time', () => {
    const error: ServerEvent = {
      type: 'error',
      code: 'bad_message',
      message: 'no',
      session_id: 'ses_1',
      run_id: '',
      seq: 0,
      ts: 5,
    };
    const view = foldSessionEvent(foldSessionEvent(emptySessionView('ses_1'), error), { ...error, ts: 6 });
    expect(view.items.map((item) => item.kind)).toEqual(['notice', 'notice']);
  });
});
