import type {
  ApprovalItem,
  FailureItem,
  PlanView,
  QuestionItem,
  RunView,
  SessionView,
  TimelineItem,
} from './session-view-types.js';

/**
 * What a front end asks of a session view: what waits for the user, whether a run goes on, which
 * items belong to a task. Pure reads of the view.
 */

/** The session's latest run. */
export function latestRun(view: SessionView): RunView | undefined {
  return view.runs.at(-1);
}

/**
 * How a message taskweave itself sends to continue a session starts (an answer given after the
 * run ended, a plan verdict, a go-ahead, an interrupted run continued): such a run's goal is that
 * message, not something the user typed.
 */
export const CONTINUATION_PREFIX = '[taskweave] ';

/**
 * The goal a session is shown under: its latest run's, unless taskweave started that run to go
 * on (the user's answer, a verdict): then the latest goal the user gave.
 */
export function sessionHeading(view: SessionView): string | undefined {
  const given = view.runs.findLast((run) => !run.goal.startsWith(CONTINUATION_PREFIX));
  return (given ?? latestRun(view))?.goal;
}

/** Whether a run of the session goes on (started and not yet complete). */
export function isRunning(view: SessionView): boolean {
  return latestRun(view)?.status === 'running';
}

/**
 * Whether the requests of a run can still be answered: the run goes on (it waits for them), or
 * it is the session's latest and ended waiting for the user (needs_input): an answer given then
 * is stored and the session's worker goes on with it.
 */
function runGoesOn(view: SessionView, runId: string): boolean {
  const run = view.runs.find((candidate) => candidate.runId === runId);
  if (run?.status === 'running') return true;
  return run?.status === 'needs_input' && latestRun(view)?.runId === runId;
}

/** The question the agent waits on an answer to, if any. */
export function openQuestion(view: SessionView): QuestionItem | undefined {
  return view.items.findLast(
    (item): item is QuestionItem =>
      item.kind === 'question' && item.answer === undefined && !item.timedOut && runGoesOn(view, item.runId),
  );
}

/** The failed task the run waits on a decision about, if any. */
export function openFailure(view: SessionView): FailureItem | undefined {
  return view.items.findLast(
    (item): item is FailureItem => item.kind === 'failure' && !item.settled && runGoesOn(view, item.runId),
  );
}

/** The tool calls waiting for the user's approval, oldest first (parallel plan tasks may each ask). */
export function openApprovals(view: SessionView): ApprovalItem[] {
  return view.items.filter(
    (item): item is ApprovalItem => item.kind === 'approval' && !item.settled && runGoesOn(view, item.runId),
  );
}

/** The plan waiting for approval or rejection, if any. */
export function planAwaitingDecision(view: SessionView): PlanView | undefined {
  const plan = view.plans.at(-1);
  return plan?.status === 'proposed' && runGoesOn(view, plan.runId) ? plan : undefined;
}

/** The plan to draw: the latest one proposed in the session. */
export function latestPlan(view: SessionView): PlanView | undefined {
  return view.plans.at(-1);
}

/**
 * The plan of the session's latest run, if that run made one (or resumed one): a later goal that
 * made no plan is not shown beside an earlier goal's plan.
 */
export function currentPlan(view: SessionView): PlanView | undefined {
  const plan = latestPlan(view);
  return plan && plan.runId === latestRun(view)?.runId ? plan : undefined;
}

/** The conversation filtered to one plan task: its steps, questions, failures and state changes. */
export function itemsOfTask(view: SessionView, taskId: string): TimelineItem[] {
  return view.items.filter((item) => {
    switch (item.kind) {
      case 'step':
      case 'question':
      case 'failure':
      case 'task':
        return item.taskId === taskId;
      // An undo or rewind concerns files of the whole session: shown beside any task's steps.
      case 'restore':
        return true;
      default:
        return false;
    }
  });
}
