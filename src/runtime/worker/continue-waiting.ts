import type { RequestAnswer } from '../../agent/index.js';
import { reopenIfAnswered } from '../answers/reopen-answered.js';
import { alreadyAnswered, answererId, encodeAnswer } from '../answers/stored-answer.js';
import {
  applyReply,
  continuationMessage,
  planTaskAnswer,
  type WaitingReply,
} from '../answers/waiting-reply.js';
import { type WaitingSession, waitingRequestId } from '../answers/waiting-session.js';
import { RuntimeInputError } from '../setup/errors.js';
import { newWorkerId } from '../setup/worker-identity.js';
import { closeGoalTask } from './close-goal-task.js';
import { continueSession } from './continue-session.js';
import type { QueueTaskResult } from './queue-task-result.js';
import { runQueueTask } from './run-queue-task.js';
import type { WorkerDeps } from './worker-deps.js';

export type { WaitingReply } from '../answers/waiting-reply.js';

/**
 * Continues a session whose last run ended waiting for the user, with their reply: a proposed
 * plan is approved (its tasks run) or rejected (the model revises it), an answer or a go-ahead is
 * passed to the model in the session's conversation. The session's blocked queue task is taken
 * up again and closed as the new run ends; it is refused while another task runs in the queue.
 */
export async function continueWaiting(
  deps: WorkerDeps,
  waiting: WaitingSession,
  reply: WaitingReply,
): Promise<QueueTaskResult> {
  const { session, waitingFor, goalTask } = waiting;
  const { tasks } = deps.store;
  const { leaseMs } = deps.leases;
  if (reply.kind === 'answer' && waitingFor.kind !== 'answer')
    throw new RuntimeInputError(
      `Session ${session.id} does not wait for an answer but for ${waitingText(waiting)}.`,
    );
  if (reply.kind === 'plan' && waitingFor.kind !== 'plan')
    throw new RuntimeInputError(
      `Session ${session.id} has no plan waiting for approval; it waits for ${waitingText(waiting)}.`,
    );
  // Looked up before the goal is taken up again: a missing task leaves the session waiting as it was.
  const taskAnswer = await planTaskAnswer(deps.store, waiting, reply);
  const owner = newWorkerId();
  if (goalTask) {
    await tasks.resetToPending(goalTask.id);
    if (!(await tasks.startIfIdle(goalTask.id, { owner, leaseMs }))) {
      await tasks.block(goalTask.id, goalTask.failReason ?? 'needs input');
      const running = (await tasks.listActive(goalTask.queue)).find((task) => task.status === 'in_progress');
      throw new RuntimeInputError(
        `Another task runs in this workspace${running ? ` ("${running.title}")` : ''}: session ${session.id} goes on when it has finished (run the same command again then).`,
        { code: 'conflict' },
      );
    }
  }
  const given = storedAnswerOf(reply);
  let stored = false;
  if (given) {
    // Given here, the answer is stored like one given on a server: the first of the two counts.
    const outcome = await deps.store.requests.answer(waitingRequestId(waitingFor), {
      answer: encodeAnswer(given),
      by: answererId(),
    });
    if (!outcome.ok && outcome.reason === 'answered') {
      if (goalTask) {
        await tasks.block(goalTask.id, goalTask.failReason ?? 'needs input');
        // The answer stored first goes on through the queue: a worker claims the task with it
        // (its answerer may have died before putting the task back, or met this claim).
        await reopenIfAnswered(deps.store, session.id);
      }
      throw new RuntimeInputError(alreadyAnswered(outcome.request), { code: 'conflict' });
    }
    stored = outcome.ok;
  }
  // Taken and applied together: a kill between the two would leave an answer taken but never
  // logged, which no later worker goes on with.
  await deps.store.transaction(async () => {
    if (stored) await deps.store.requests.take(waitingRequestId(waitingFor), owner);
    await applyReply(deps, waiting, reply, taskAnswer);
  });
  const goal = continuationMessage(waiting, reply);
  if (goalTask) {
    const task = { ...goalTask, status: 'in_progress' as const };
    const result = await runQueueTask(deps, task, owner, { continuing: true, goal });
    if (!result.cancelled && !deps.stop.requested)
      await closeGoalTask(
        tasks,
        {
          id: goalTask.id,
          owner,
          queue: goalTask.queue,
          leaseMs,
          answers: { store: deps.store, sessionId: result.sessionId },
        },
        result,
      );
    return result;
  }
  const run = await deps.runs.open(session.id, deps.runs.own(session.id));
  try {
    const result = await continueSession(deps.store, {
      sessionId: session.id,
      goal,
      run: run.options,
      plan: deps.runs.settings.plan,
    });
    return { sessionId: session.id, ...result, cancelled: false };
  } finally {
    await run.end();
  }
}

/** A reply as the answer to the request it replies to, for the store; undefined for a go-ahead. */
function storedAnswerOf(reply: WaitingReply): RequestAnswer | undefined {
  switch (reply.kind) {
    case 'answer':
      return { kind: 'input', content: reply.content };
    case 'plan':
      return reply.decision === 'approve'
        ? { kind: 'plan', decision: 'approve' }
        : { kind: 'plan', decision: 'reject', feedback: reply.feedback };
    case 'approval':
      return {
        kind: 'approval',
        decision: reply.decision,
        ...(reply.reason ? { reason: reply.reason } : {}),
      };
    case 'go_on':
      return undefined;
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
