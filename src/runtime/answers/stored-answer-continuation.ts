import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/ports.js';
import { decodeAnswer } from './stored-answer.js';
import { applyReply, continuationMessage, planTaskAnswer, replyOfAnswer } from './waiting-reply.js';
import { waitingFor, waitingRequestId } from './waiting-session.js';

/** How a session that waited goes on with the answer someone stored for it. */
export interface StoredAnswerContinuation {
  /** What the continued run is told (the answer, the verdict on the plan or on the call). */
  goal: string;
  /** The verdict on the call that needed approval: the continued run's same call gets it at once. */
  approval?: { name: string; preview: string; decision: 'allow' | 'deny' | 'always'; reason?: string };
}

/**
 * The answer given (on any server or terminal, through the store) to what a session waits for,
 * taken by the worker that holds the session's queue task now: undefined when the session does
 * not wait or its request has no answer yet. Taking it and writing what it changes (the answer
 * logged against the question, a plan's verdict, a plan task's message) commit together, once:
 * a worker killed after that leaves it done and recorded, and the worker that takes the task
 * over goes on with the same answer without writing it again.
 */
export async function takeStoredAnswer(
  ctx: { store: Store; bus: EventBus },
  sessionId: string,
  owner: string,
): Promise<StoredAnswerContinuation | undefined> {
  const session = await ctx.store.sessions.getSession(sessionId);
  const waiting = session && (await waitingFor(ctx.store, session));
  if (!waiting) return undefined;
  const requestId = waitingRequestId(waiting.waitingFor);
  const answer = decodeAnswer((await ctx.store.requests.get(requestId))?.answer ?? null);
  const reply = answer && replyOfAnswer(waiting, answer);
  if (!reply) return undefined;
  const taskAnswer = await planTaskAnswer(ctx.store, waiting, reply);
  await ctx.store.transaction(async () => {
    const taken = await ctx.store.requests.take(requestId, owner);
    if (taken?.first) await applyReply(ctx, waiting, reply, taskAnswer);
  });
  const { waitingFor: what } = waiting;
  return {
    goal: continuationMessage(waiting, reply),
    ...(reply.kind === 'approval' && what.kind === 'approval'
      ? {
          approval: {
            name: what.name,
            preview: what.preview,
            decision: reply.decision,
            ...(reply.reason ? { reason: reply.reason } : {}),
          },
        }
      : {}),
  };
}
