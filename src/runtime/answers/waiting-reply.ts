import type { ApprovalDecision, RequestAnswer } from '../../agent/index.js';
import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/ports.js';
import { RuntimeInputError } from '../setup/errors.js';
import type { WaitingSession } from './waiting-session.js';

/** What the user gives a session that waits for them. */
export type WaitingReply =
  /** The answer to the question (WaitingFor `answer`). */
  | { kind: 'answer'; content: string }
  /** The verdict on the proposed plan; `feedback` says what to change when rejected. */
  | { kind: 'plan'; decision: 'approve' }
  | { kind: 'plan'; decision: 'reject'; feedback: string }
  /**
   * Go on after a call that needed approval: the run continues under the approval mode now in
   * force, and the call is asked again (on a terminal) or allowed by that mode.
   */
  | { kind: 'go_on' }
  /** The user's verdict on the call that needed approval (given on a server, through the store). */
  | { kind: 'approval'; decision: ApprovalDecision; reason?: string };

/**
 * Writes what a reply changes before the session goes on: a plan task's answer into that task's
 * conversation, the answer logged against the question (it shows answered everywhere), the
 * plan's verdict. `taskAnswer` is planTaskAnswer's, looked up by the caller.
 */
export async function applyReply(
  ctx: { store: Store; bus: EventBus },
  waiting: WaitingSession,
  reply: WaitingReply,
  taskAnswer: Awaited<ReturnType<typeof planTaskAnswer>>,
): Promise<void> {
  const { session, waitingFor } = waiting;
  const { plans } = ctx.store;
  if (taskAnswer)
    await ctx.store.sessions.appendMessage(session.id, taskAnswer.runId, 'user', taskAnswer.text, {
      taskId: taskAnswer.taskId,
    });
  if (reply.kind === 'answer' && waitingFor.kind === 'answer') {
    // Logged like an answer given while the run waited: the question shows answered everywhere.
    const answered = await ctx.store.sessions.appendEvent({
      session_id: session.id,
      run_id: waitingFor.runId,
      ts: Date.now(),
      type: 'agent_update',
      update_type: 'agent_user_input',
      request_id: waitingFor.requestId,
      content: reply.content,
    });
    ctx.bus.publish(answered);
  }
  if (waitingFor.kind === 'plan' && reply.kind === 'plan') {
    const planId = waitingFor.event.plan_id;
    if (reply.decision === 'approve') await plans.setPlanStatus(planId, 'approved');
    else await plans.setPlanStatus(planId, 'rejected', reply.feedback);
  }
}

/** The reply a stored answer gives a waiting session; undefined when it does not fit what the session waits for. */
export function replyOfAnswer(waiting: WaitingSession, answer: RequestAnswer): WaitingReply | undefined {
  const kind = waiting.waitingFor.kind;
  if (answer.kind === 'input' && kind === 'answer') return { kind: 'answer', content: answer.content };
  if (answer.kind === 'plan' && kind === 'plan')
    return answer.decision === 'approve'
      ? { kind: 'plan', decision: 'approve' }
      : { kind: 'plan', decision: 'reject', feedback: answer.feedback ?? '' };
  if (answer.kind === 'approval' && kind === 'approval')
    return {
      kind: 'approval',
      decision: answer.decision,
      ...(answer.reason ? { reason: answer.reason } : {}),
    };
  return undefined;
}

/**
 * The answer to a plan task's question, as a message for that task's conversation (the task goes
 * on from it when the plan resumes); undefined when the reply is not such an answer.
 */
export async function planTaskAnswer(
  store: Store,
  waiting: WaitingSession,
  reply: WaitingReply,
): Promise<{ runId: string; taskId: string; text: string } | undefined> {
  const { session, waitingFor } = waiting;
  if (reply.kind !== 'answer' || waitingFor.kind !== 'answer' || waitingFor.taskId === undefined)
    return undefined;
  const plan = await store.plans.lastPlan(session.id);
  const key = waitingFor.taskId;
  const task = plan && (await store.plans.planTasks(plan.id)).find((candidate) => candidate.key === key);
  const run = (await store.sessions.runs(session.id)).at(-1);
  if (!task || !run)
    throw new RuntimeInputError(`The plan task ${key} that asked is no longer in session ${session.id}.`);
  return { runId: run.id, taskId: task.id, text: answerText(waitingFor.question, reply.content, 'task') };
}

function answerText(question: string, answer: string, scope: 'request' | 'task'): string {
  return `[taskweave] You asked: ${question}\nThe user answered: ${answer}\nGo on with the ${scope} using this answer.`;
}

/** What the continued run is told (an approved plan needs nothing: its tasks run). */
export function continuationMessage(waiting: WaitingSession, reply: WaitingReply): string {
  const { waitingFor } = waiting;
  switch (reply.kind) {
    case 'answer':
      // A plan task's answer is in that task's conversation: a resumed plan is not told this.
      return answerText(waitingFor.kind === 'answer' ? waitingFor.question : '', reply.content, 'request');
    case 'plan':
      return reply.decision === 'approve'
        ? '[taskweave] The user approved the plan.'
        : `[taskweave] The user rejected the plan. Their feedback: ${reply.feedback || '(none given)'}\nRevise the plan accordingly and call plan_actions again.`;
    case 'go_on':
      return waitingFor.kind === 'approval'
        ? `[taskweave] The run ended because ${waitingFor.name} needed an approval no one could give: ${waitingFor.preview}\nThe user has continued the session; go on where you left off and make the call again if it is still needed (it is asked or allowed now).`
        : '[taskweave] The user has continued the session; go on where you left off.';
    case 'approval': {
      if (waitingFor.kind !== 'approval')
        return '[taskweave] The user has continued the session; go on where you left off.';
      const call = `${waitingFor.name}: ${waitingFor.preview}`;
      return reply.decision === 'deny'
        ? `[taskweave] The run ended because ${call} needed an approval; the user has denied it${reply.reason ? `: ${reply.reason}` : ''}.\nDo not make that call; go on without it.`
        : `[taskweave] The run ended because ${call} needed an approval; the user has now allowed it.\nMake the call again where you left off: it runs now.`;
    }
  }
}
