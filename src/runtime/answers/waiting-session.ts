import type { ServerEvent } from '../../events/registry.js';
import type { Store } from '../../store/ports.js';
import type { Session, Task } from '../../store/rows.js';

/** What a run that ended with needs_input waits for. */
export type WaitingFor =
  /**
   * The answer to the model's question (`request_input`); `taskId` when a plan's task asked;
   * `requestId` and `runId` name the request and the run that asked (the answer is logged to them).
   */
  | { kind: 'answer'; question: string; taskId?: string; requestId: string; runId: string }
  /** The approval of a proposed plan. */
  | { kind: 'plan'; event: Extract<ServerEvent, { update_type: 'plan_proposed' }> }
  /** The approval of a tool call (a command, a file change, an MCP tool). */
  | { kind: 'approval'; name: string; preview: string; requestId: string };

/** A session whose last run ended waiting for the user, with what it waits for. */
export interface WaitingSession {
  session: Session;
  waitingFor: WaitingFor;
  /** The session's queue task, blocked while the session waits (absent for older sessions). */
  goalTask?: Task;
}

/** The id of the request a waiting session waits for (a plan's id for a plan). */
export function waitingRequestId(waitingFor: WaitingFor): string {
  return waitingFor.kind === 'plan' ? waitingFor.event.plan_id : waitingFor.requestId;
}

/** The reason a goal's queue task is blocked with while its session waits for the user. */
export const NEEDS_INPUT_PREFIX = 'needs input';

/**
 * What the session waits for, when its last run ended with needs_input: read from that run's
 * events (the request nobody could answer is logged even then). Undefined otherwise.
 */
export async function waitingFor(store: Store, session: Session): Promise<WaitingSession | undefined> {
  const last = (await store.sessions.runs(session.id)).at(-1);
  if (last?.status !== 'needs_input') return undefined;
  const events = (await store.sessions.events(session.id)).filter((event) => event.run_id === last.id);
  const goalTask = (await store.tasks.listAll({ sessionId: session.id, status: 'blocked' }))
    .filter((task) => task.planId === null)
    .at(-1);
  const found = { session, ...(goalTask ? { goalTask } : {}) };
  for (const event of events.reverse()) {
    if (event.type !== 'agent_update') continue;
    if (event.update_type === 'agent_request_input')
      return {
        ...found,
        waitingFor: {
          kind: 'answer',
          question: event.question,
          requestId: event.request_id,
          runId: last.id,
          ...(event.task_id ? { taskId: event.task_id } : {}),
        },
      };
    if (event.update_type === 'approval_requested')
      return {
        ...found,
        waitingFor: {
          kind: 'approval',
          name: event.name,
          preview: event.preview,
          requestId: event.request_id,
        },
      };
    if (event.update_type === 'plan_proposed') {
      const plan = await store.plans.getPlan(event.plan_id);
      if (plan?.status === 'proposed') return { ...found, waitingFor: { kind: 'plan', event } };
    }
  }
  return undefined;
}

/**
 * The most recently active session that waits for the user, unless a session with interrupted
 * work (a crash) is more recent: `resume` continues the latest of the two.
 */
export async function latestWaitingSession(store: Store): Promise<WaitingSession | undefined> {
  const interrupted = await store.sessions.latestSessionWithUnfinishedWork();
  for (const session of await store.sessions.listSessions({ limit: RECENT_SESSIONS_LOOKED_AT })) {
    const waiting = await waitingFor(store, session);
    if (waiting) return waiting;
    if (session.id === interrupted?.id) return undefined;
  }
  return undefined;
}

/** How many of the latest sessions a plain `resume` looks through for one that waits. */
const RECENT_SESSIONS_LOOKED_AT = 20;
