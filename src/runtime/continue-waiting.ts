import type { Store } from '../store/ports.js';
import { closeGoalTask } from './close-goal-task.js';
import { RuntimeInputError } from './errors.js';
import {
  continueSession,
  LEASE_MS,
  type QueueTaskResult,
  runQueueTask,
  sessionRun,
  type WorkerContext,
} from './queue-worker.js';
import type { WaitingSession } from './waiting-session.js';
import { newWorkerId } from './worker-identity.js';

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
  | { kind: 'go_on' };

/**
 * Continues a session whose last run ended waiting for the user, with their reply: a proposed
 * plan is approved (its tasks run) or rejected (the model revises it), an answer or a go-ahead is
 * passed to the model in the session's conversation. The session's blocked queue task is taken
 * up again and closed as the new run ends; it is refused while another task runs in the queue.
 */
export async function continueWaiting(
  ctx: WorkerContext,
  waiting: WaitingSession,
  reply: WaitingReply,
): Promise<QueueTaskResult> {
  const { session, waitingFor, goalTask } = waiting;
  const { tasks, plans } = ctx.store;
  if (reply.kind === 'answer' && waitingFor.kind !== 'answer')
    throw new RuntimeInputError(
      `Session ${session.id} does not wait for an answer but for ${waitingText(waiting)}.`,
    );
  if (reply.kind === 'plan' && waitingFor.kind !== 'plan')
    throw new RuntimeInputError(
      `Session ${session.id} has no plan waiting for approval; it waits for ${waitingText(waiting)}.`,
    );
  // Looked up before the goal is taken up again: a missing task leaves the session waiting as it was.
  const taskAnswer = await planTaskAnswer(ctx.store, waiting, reply);
  const owner = newWorkerId();
  if (goalTask) {
    await tasks.resetToPending(goalTask.id);
    if (!(await tasks.startIfIdle(goalTask.id, { owner, leaseMs: LEASE_MS }))) {
      await tasks.block(goalTask.id, goalTask.failReason ?? 'needs input');
      const running = (await tasks.listActive(goalTask.queue)).find((task) => task.status === 'in_progress');
      throw new RuntimeInputError(
        `Another task runs in this workspace${running ? ` ("${running.title}")` : ''}: session ${session.id} goes on when it has finished (run the same command again then).`,
        { code: 'conflict' },
      );
    }
  }
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
  const goal = continuationMessage(waiting, reply);
  if (goalTask) {
    const task = { ...goalTask, status: 'in_progress' as const };
    const result = await runQueueTask(ctx, task, owner, { continuing: true, goal });
    if (!result.cancelled && !ctx.stopRequested)
      await closeGoalTask(
        tasks,
        { id: goalTask.id, owner, queue: goalTask.queue, leaseMs: LEASE_MS },
        result,
      );
    return result;
  }
  const { run, end } = await sessionRun(ctx, session.id);
  try {
    const result = await continueSession(ctx, { sessionId: session.id, goal, run });
    return { sessionId: session.id, ...result, cancelled: false };
  } finally {
    await end();
  }
}

/**
 * The answer to a plan task's question, as a message for that task's conversation (the task goes
 * on from it when the plan resumes); undefined when the reply is not such an answer.
 */
async function planTaskAnswer(
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
function continuationMessage(waiting: WaitingSession, reply: WaitingReply): string {
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
  }
}

/** What a session waits for, in words. */
export function waitingText(waiting: WaitingSession): string {
  const { waitingFor } = waiting;
  switch (waitingFor.kind) {
    case 'answer':
      return `an answer to: ${waitingFor.question}`;
    case 'plan':
      return `the approval of plan ${waitingFor.event.plan_id} (${waitingFor.event.tasks.length} ${waitingFor.event.tasks.length === 1 ? 'task' : 'tasks'})`;
    case 'approval':
      return `an approval of ${waitingFor.name}: ${waitingFor.preview}`;
  }
}
