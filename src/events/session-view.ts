import { compactionText } from './compaction-text.js';
import { hookRanText } from './hook-ran-text.js';
import type { AgentUpdate, RunStatus, ServerEvent, TopLevelOf } from './registry.js';
import { foldBackgroundEvent } from './session-view-background.js';
import {
  addTokens,
  append,
  settleApprovalOf,
  settleApprovals,
  settleFailures,
  updateItems,
} from './session-view-items.js';
import { addTaskUsage, foldPlanUpdate, planTaskTitle } from './session-view-plan.js';
import { childCallOf, foldChildEvent } from './session-view-subagents.js';
import type { NoticeItem, SessionView, StepItem, TimelineItem, ToolCallView } from './session-view-types.js';
import { formatDollars } from './usage-text.js';
import { worktreeText } from './worktree-text.js';

export type * from './session-view-types.js';

/**
 * The pure fold of a session's events into what a front end shows (session-view-types.ts): the
 * web UI keeps one view per session and folds every event it receives into it. Replayed and live
 * events may overlap after a reconnect: a logged event (seq > 0) at or below `lastSeq` is ignored,
 * so a replay shows no gap and no duplicate. The view is never mutated; parts that change are new.
 */

/** The view of a session before any event. */
export function emptySessionView(sessionId?: string): SessionView {
  return {
    sessionId,
    lastSeq: 0,
    items: [],
    runs: [],
    plans: [],
    usage: { input: 0, output: 0 },
    runningTools: 0,
    background: [],
  };
}

/** Folds a list of events, in order, into a view. */
export function foldSessionEvents(events: readonly ServerEvent[], view = emptySessionView()): SessionView {
  return events.reduce(foldSessionEvent, view);
}

/** Folds one event into the view; the view is returned unchanged for a duplicate. */
export function foldSessionEvent(view: SessionView, event: ServerEvent): SessionView {
  if (event.seq > 0 && event.seq <= view.lastSeq) return view;
  const next: SessionView = {
    ...view,
    sessionId: view.sessionId ?? event.session_id,
    lastSeq: Math.max(view.lastSeq, event.seq),
  };
  const childCall = childCallOf(event);
  if (childCall !== undefined) return foldChildEvent(next, childCall, event, foldSessionEvent);
  if (event.type === 'agent_update') return foldUpdate(next, event);
  return foldTopLevel(next, event);
}

type Update = AgentUpdate & Pick<ServerEvent, 'run_id' | 'ts'>;

function foldUpdate(view: SessionView, event: Update): SessionView {
  const runId = event.run_id;
  switch (event.update_type) {
    case 'agent_start': {
      // A session runs one run at a time: one still running here was left by a process that ended.
      const earlier = view.runs
        .filter((run) => run.status === 'running')
        .reduce((ended, run) => endRun(ended, run.runId, 'stopped', event.ts), view);
      const opening: TimelineItem = event.continued
        ? {
            kind: 'notice',
            id: `${runId}:continued`,
            runId,
            tone: 'info',
            text: 'The process running this session ended before the run did; taskweave goes on where it stopped.',
          }
        : {
            kind: 'goal',
            id: `${runId}:goal`,
            runId,
            goal: event.goal,
            ...(event.images?.length ? { images: event.images } : {}),
            ts: event.ts,
          };
      return {
        ...earlier,
        runs: [
          ...earlier.runs,
          {
            runId,
            goal: event.goal,
            status: 'running',
            maxSteps: event.max_steps,
            loop: event.loop,
            mode: event.mode,
            model: event.model,
            startedAt: event.ts,
            usage: { input: 0, output: 0 },
          },
        ],
        items: [...earlier.items, opening],
      };
    }
    case 'agent_turn_start':
      return upsertStep(
        view,
        { runId, step: event.step, taskId: event.task_id, ts: event.ts },
        (step) => step,
      );
    case 'agent_text_delta':
      return upsertStep(view, { runId, step: event.step, taskId: event.task_id, ts: event.ts }, (step) => ({
        ...step,
        text: step.text + event.content,
      }));
    case 'agent_reason':
      return upsertStep(view, { runId, step: event.step, taskId: event.task_id, ts: event.ts }, (step) =>
        // Under react the reasoning is the text that already streamed.
        event.content.trim() === '' || event.content.trim() === step.text.trim()
          ? step
          : { ...step, reason: event.content },
      );
    case 'agent_observe':
      return upsertStep(view, { runId, step: event.step, taskId: event.task_id, ts: event.ts }, (step) => ({
        ...step,
        observe: { content: event.content, shouldContinue: event.should_continue },
      }));
    case 'agent_note':
      // Step 0: what taskweave says before the first step (the sandbox, say), not a step of its own.
      if (event.step === 0)
        return append(view, {
          kind: 'notice',
          id: `${runId}:note:${view.items.length}`,
          runId,
          tone: 'info',
          text: event.content,
        });
      return upsertStep(view, { runId, step: event.step, taskId: event.task_id, ts: event.ts }, (step) => ({
        ...step,
        notes: [...step.notes, event.content],
      }));
    case 'context_compacted':
      return upsertStep(view, { runId, step: event.step, taskId: event.task_id, ts: event.ts }, (step) => ({
        ...step,
        notes: [...step.notes, compactionText(event)],
      }));
    case 'agent_retry':
      return upsertStep(view, { runId, step: event.step, ts: event.ts }, (step) => ({
        ...step,
        text: '',
        retries: [...step.retries, { attempt: event.attempt, delayMs: event.delay_ms, error: event.error }],
      }));
    case 'model_usage': {
      const added = {
        input: event.input_tokens,
        output: event.output_tokens,
        ...(event.cost === undefined ? {} : { cost: event.cost }),
      };
      const withTask = event.task_id === undefined ? view : addTaskUsage(view, runId, event.task_id, added);
      const counted = {
        ...withTask,
        usage: addTokens(view.usage, added),
        runs: withTask.runs.map((run) =>
          run.runId === runId ? { ...run, usage: addTokens(run.usage, added) } : run,
        ),
      };
      return upsertStep(
        counted,
        { runId, step: event.step, taskId: event.task_id, ts: event.ts },
        (step) => ({
          ...step,
          usage: addTokens(step.usage, added),
        }),
      );
    }
    case 'final_answer_refused':
      return refuse(view, runId, event.remaining);
    case 'agent_request_input':
      return append(view, {
        kind: 'question',
        id: `${runId}:question:${event.request_id}`,
        runId,
        requestId: event.request_id,
        question: event.question,
        taskId: event.task_id,
        askedAt: event.ts,
        timedOut: false,
      });
    case 'agent_user_input':
      return updateItems(view, (item) =>
        item.kind === 'question' && item.requestId === event.request_id
          ? { ...item, answer: event.content }
          : item,
      );
    case 'agent_request_input_timeout':
      return updateItems(view, (item) =>
        item.kind === 'question' && item.requestId === event.request_id ? { ...item, timedOut: true } : item,
      );
    case 'agent_stopped':
      return append(view, {
        kind: 'notice',
        id: `${runId}:stopped:${event.step}`,
        runId,
        tone: 'warning',
        text: `Stopped at step ${event.step}.`,
      });
    case 'failure_decision_requested':
      return append(view, {
        kind: 'failure',
        id: `${runId}:failure:${event.request_id}`,
        runId,
        requestId: event.request_id,
        taskId: event.task_id,
        title: planTaskTitle(view, runId, event.task_id),
        reason: event.reason,
        blocked: event.blocked.map((id) => ({ id, title: planTaskTitle(view, runId, id) })),
        choices: event.choices,
        ts: event.ts,
        settled: false,
      });
    case 'approval_requested':
      return append(view, {
        kind: 'approval',
        id: `${runId}:approval:${event.request_id}`,
        runId,
        requestId: event.request_id,
        callId: event.call_id,
        name: event.name,
        args: event.args,
        preview: event.preview,
        ...(event.always !== undefined ? { always: event.always } : {}),
        ...(event.operators !== undefined ? { operators: event.operators } : {}),
        taskId: event.task_id,
        ...(event.check ? { check: true } : {}),
        askedAt: event.ts,
        settled: false,
      });
    case 'agent_completion': {
      // Where the goal's work went is said on the run's completion card, not as a notice before it.
      const work = view.items.find(
        (item): item is NoticeItem =>
          item.kind === 'notice' && item.runId === runId && item.goalWork !== undefined,
      );
      const items = work ? view.items.filter((item) => item !== work) : view.items;
      return settleFailures(
        append(
          { ...view, items },
          {
            kind: 'completion',
            id: `${runId}:completion`,
            runId,
            status: event.status,
            finalAnswer: event.final_answer,
            reason: event.reason,
            steps: event.steps,
            usage: {
              input: event.input_tokens,
              output: event.output_tokens,
              ...(event.cost === undefined ? {} : { cost: event.cost }),
            },
            ...(work?.goalWork ? { goalWork: work.goalWork } : {}),
          },
        ),
        runId,
      );
    }
    case 'budget_exceeded':
      return append(view, {
        kind: 'notice',
        id: `${runId}:budget`,
        runId,
        tone: 'warning',
        text: `Budget exceeded: the session spent ${formatDollars(event.spent)} of its ${formatDollars(event.budget)} budget; the run stops.`,
      });
    case 'checkpoint_restored': {
      const undone = event.kind !== 'redo';
      const keys = new Set(event.steps.map((step) => `${step.run_id}\0${step.task_id ?? ''}\0${step.step}`));
      const marked = updateItems(view, (item) =>
        item.kind === 'step' && keys.has(`${item.runId}\0${item.taskId ?? ''}\0${item.step}`)
          ? { ...item, rewound: undone }
          : item,
      );
      return append(marked, {
        kind: 'restore',
        id: `${runId}:restore:${event.ts}`,
        runId,
        restoreKind: event.kind,
        mode: event.mode,
        checkpoints: event.checkpoints,
        files: event.files,
        conflicts: event.conflicts,
        messages: event.messages,
        ts: event.ts,
      });
    }
    case 'hook_ran':
      // A hook that went well is not news; one that failed (or refused a call) is.
      if (event.exit_code === 0) return view;
      return append(view, {
        kind: 'notice',
        id: `${runId}:hook:${event.ts}:${event.hook}`,
        runId,
        tone: 'warning',
        text: hookRanText(event),
      });
    case 'goal_branch':
    case 'worktree_created':
    case 'task_merged':
    case 'merge_conflict':
      return append(view, {
        kind: 'notice',
        id: `${runId}:worktree:${view.items.length}`,
        runId,
        tone: event.update_type === 'merge_conflict' ? 'warning' : 'info',
        text: worktreeText(event),
      });
    case 'goal_applied':
      return append(view, {
        kind: 'notice',
        id: `${runId}:goal-work:${event.plan_id}`,
        runId,
        tone: event.outcome === 'applied' ? 'info' : 'warning',
        text: worktreeText(event),
        goalWork: {
          goalId: event.plan_id,
          branch: event.branch,
          outcome: event.outcome,
          text: worktreeText(event),
        },
      });
    case 'subagent_started':
    case 'subagent_ended':
      // Folded on their delegate call (childCallOf): they always name it.
      return view;
    default:
      return foldPlanUpdate(view, event);
  }
}

type TopLevel = Exclude<ServerEvent, { type: 'agent_update' }>;

function foldTopLevel(view: SessionView, event: TopLevel): SessionView {
  const runId = event.run_id;
  switch (event.type) {
    case 'tool_start': {
      const call: ToolCallView = {
        callId: event.call_id,
        name: event.name,
        args: event.args,
        step: event.step,
        taskId: event.task_id,
        status: 'running',
        progress: [],
        startedAt: event.ts,
      };
      const started = { ...view, runningTools: view.runningTools + 1 };
      return upsertStep(
        started,
        { runId, step: event.step, taskId: event.task_id, ts: event.ts },
        (step) => ({
          ...step,
          tools: [...step.tools, call],
        }),
      );
    }
    case 'tool_progress':
      return updateCall(view, event.call_id, (call) => ({
        ...call,
        progress: [...call.progress, event.content],
      }));
    case 'tool_complete':
      return finishCall(settleApprovalOf(view, event.call_id, event.display ?? 'done'), event);
    case 'tool_error':
      return finishCall(settleApprovalOf(view, event.call_id, event.display ?? event.error), event);
    case 'response_complete':
      return endRun(view, runId, event.status, event.ts);
    case 'background_started':
    case 'background_output':
    case 'background_ended':
      return foldBackgroundEvent(view, event);
    case 'chat_accepted':
    case 'approval_mode':
      // Answers of the server to one connection (where a goal waits, the approval mode) are not part of the conversation.
      return view;
    case 'error':
      return append(view, {
        kind: 'notice',
        id: `error:${event.ts}:${view.items.length}`,
        runId,
        tone: 'error',
        text: `${event.message} (${event.code})`,
      });
  }
}

function finishCall(
  view: SessionView,
  event: TopLevelOf<'tool_complete'> | TopLevelOf<'tool_error'>,
): SessionView {
  const finished = updateCall(view, event.call_id, (call) => ({
    ...call,
    status: event.type === 'tool_complete' ? 'ok' : 'error',
    output: event.type === 'tool_complete' ? event.result : event.error,
    display: event.display,
    ...(event.type === 'tool_complete' && event.diagnostics ? { diagnostics: event.diagnostics } : {}),
    durationMs: event.duration_ms,
  }));
  return finished === view ? view : { ...finished, runningTools: Math.max(0, finished.runningTools - 1) };
}

/**
 * A run ended: what waited on it is settled, its plan ended. A tool call still running then
 * never finished (its process ended with the run's); it shows as interrupted.
 */
function endRun(view: SessionView, runId: string, status: RunStatus, ts: number): SessionView {
  const settled = settleApprovals(settleFailures(view, runId), runId);
  return {
    ...updateItems(settled, (item) =>
      item.kind === 'step' && item.runId === runId && item.tools.some((call) => call.status === 'running')
        ? {
            ...item,
            tools: item.tools.map((call) =>
              call.status === 'running' ? { ...call, status: 'error', display: 'interrupted' } : call,
            ),
          }
        : item,
    ),
    runningTools: 0,
    runs: view.runs.map((run) => (run.runId === runId ? { ...run, status, endedAt: ts } : run)),
    plans: view.plans.map((plan) =>
      plan.runId === runId && plan.status !== 'rejected' ? { ...plan, status: 'ended' } : plan,
    ),
  };
}

function upsertStep(
  view: SessionView,
  at: { runId: string; step: number; taskId?: string; ts: number },
  update: (step: StepItem) => StepItem,
): SessionView {
  const id = `${at.runId}:step:${at.step}`;
  const index = view.items.findLastIndex((item) => item.id === id);
  const existing = view.items[index];
  if (existing?.kind === 'step') {
    const items = view.items.slice();
    items[index] = update(existing);
    return { ...view, items };
  }
  const fresh: StepItem = {
    kind: 'step',
    id,
    runId: at.runId,
    step: at.step,
    taskId: at.taskId,
    startedAt: at.ts,
    text: '',
    tools: [],
    notes: [],
    retries: [],
    usage: { input: 0, output: 0 },
  };
  return { ...view, items: [...view.items, update(fresh)] };
}

function updateCall(
  view: SessionView,
  callId: string,
  update: (call: ToolCallView) => ToolCallView,
): SessionView {
  const index = view.items.findLastIndex(
    (item) => item.kind === 'step' && item.tools.some((call) => call.callId === callId),
  );
  const step = view.items[index];
  if (step?.kind !== 'step') return view;
  const items = view.items.slice();
  items[index] = { ...step, tools: step.tools.map((call) => (call.callId === callId ? update(call) : call)) };
  return { ...view, items };
}

/** A refused final answer belongs to the step whose final_answer call it refused. */
function refuse(view: SessionView, runId: string, remaining: number): SessionView {
  const index = view.items.findLastIndex(
    (item) =>
      item.kind === 'step' && item.runId === runId && item.tools.some((call) => call.name === 'final_answer'),
  );
  const step = view.items[index];
  if (step?.kind === 'step' && step.refusedRemaining === undefined) {
    const items = view.items.slice();
    items[index] = { ...step, refusedRemaining: remaining };
    return { ...view, items };
  }
  return append(view, {
    kind: 'notice',
    id: `${runId}:refused:${view.items.length}`,
    runId,
    tone: 'warning',
    text: `Final answer refused: ${remaining === 1 ? '1 task remains' : `${remaining} tasks remain`}.`,
  });
}
