import type { ClientMessage, ClientMessageOf } from '../../events/client-messages.js';
import type { ServerEvent } from '../../events/registry.js';
import {
  type GoalSettings,
  type RequestAnswer,
  type Runtime,
  RuntimeInputError,
  type Taskweave,
} from '../../runtime/index.js';

/** What a message handler needs of the client's connection. */
export interface ClientConnection {
  /** The SDK's face: goals, stops and answers go through it. */
  readonly taskweave: Taskweave;
  /** The runtime under it, for what the face does not cover (checkpoints, custom commands, settings). */
  readonly runtime: Runtime;
  /** The session a message without `session_id` means: the last one chatted in or subscribed to. */
  activeSession: string | undefined;
  follow(sessionId: string, afterSeq: number): void;
  isFollowing(sessionId: string): boolean;
  send(message: ServerEvent): void;
  sendError(code: string, message: string, sessionId?: string): void;
}

/** Carries out one valid client message through the runtime; bad requests throw RuntimeInputError. */
export async function handleMessage(connection: ClientConnection, message: ClientMessage): Promise<void> {
  switch (message.type) {
    case 'chat':
      return chat(connection, message);
    case 'subscribe': {
      const session = await connection.runtime.sessions.find(message.session_id);
      connection.activeSession = session.id;
      connection.follow(session.id, message.after_seq ?? 0);
      return;
    }
    case 'agent_control': {
      const sessionId = message.session_id ?? connection.activeSession;
      if (sessionId === undefined) throw new RuntimeInputError('Which session? Give session_id.');
      if (!(await connection.taskweave.stop(sessionId)))
        throw new RuntimeInputError(`Nothing of session ${sessionId} is running or queued.`, {
          code: 'conflict',
        });
      return;
    }
    case 'agent_user_input':
      return answer(connection, message.request_id ?? onlyInputRequest(connection), {
        kind: 'input',
        content: message.content,
      });
    case 'plan_decision':
      return answer(connection, message.plan_id, {
        kind: 'plan',
        decision: message.decision,
        ...(message.feedback === undefined ? {} : { feedback: message.feedback }),
      });
    case 'failure_decision':
      return answer(connection, message.request_id, {
        kind: 'failure',
        decision: message.decision,
        ...(message.feedback === undefined ? {} : { feedback: message.feedback }),
      });
    case 'set_approval_mode':
      // Every client hears of it through the runtime's listener (approvalModeEvent), this one too.
      connection.runtime.setApprovalMode(message.mode);
      return;
    case 'restore_checkpoint':
      return restoreCheckpoint(connection, message);
    case 'stop_background_command':
      await connection.runtime.stopBackgroundCommand(message.session_id, message.command_id, 'the user');
      return;
    case 'approval_decision':
      return answer(connection, message.request_id, {
        kind: 'approval',
        decision: message.decision,
        ...(message.reason === undefined ? {} : { reason: message.reason }),
      });
  }
}

/** The `approval_mode` event: the runtime's approval mode and sandbox now (not logged: seq 0). */
export function approvalModeEvent(runtime: Runtime): ServerEvent {
  const { safety } = runtime;
  return {
    type: 'approval_mode',
    mode: runtime.approvalMode,
    sandbox: safety.sandboxLabel,
    network: safety.network,
    session_id: '',
    run_id: '',
    seq: 0,
    ts: Date.now(),
  };
}

async function chat(connection: ClientConnection, message: ClientMessageOf<'chat'>): Promise<void> {
  const { runtime } = connection;
  if (message.model !== undefined && message.model !== runtime.model.id)
    throw new RuntimeInputError(
      `This server runs the model ${runtime.model.id}; start taskweave serve with --model ${message.model} to use that one.`,
    );
  const mode = message.agent_mode === true ? 'auto' : message.agent_mode;
  const settings: GoalSettings = {
    maxSteps: message.agent_max_steps,
    loop: message.loop,
    plan:
      mode === false
        ? 'never'
        : (message.plan ?? (mode === 'simple' ? 'never' : mode === 'complex' ? 'always' : undefined)),
    ...(mode === false ? { chat: true } : {}),
    ...(message.images === undefined ? {} : { images: message.images }),
  };
  // `/name args` naming a custom command starts the goal of its file, with its settings.
  const custom = message.content.startsWith('/')
    ? await runtime.customCommandGoal(message.content)
    : undefined;
  // A goal that has to queue is left to the server's queue worker (wait: false).
  const run = connection.taskweave.run(custom ? custom.goal : message.content, {
    ...(message.session_id === undefined ? {} : { session: message.session_id }),
    ...settings,
    ...custom?.settings,
    wait: false,
  });
  const { sessionId, taskId, position } = await run.started;
  connection.activeSession = sessionId;
  connection.send({
    type: 'chat_accepted',
    task_id: taskId,
    position,
    session_id: sessionId,
    run_id: '',
    seq: 0,
    ts: Date.now(),
  });
  if (!connection.isFollowing(sessionId)) connection.follow(sessionId, 0);
  run.settled.catch((error: unknown) =>
    connection.sendError('run_failed', (error as Error).message, sessionId),
  );
}

/**
 * An undo, rewind or redo asked from the web UI; every client following the session hears of it
 * through the checkpoint_restored event. Not while the session runs.
 */
async function restoreCheckpoint(
  connection: ClientConnection,
  message: ClientMessageOf<'restore_checkpoint'>,
): Promise<void> {
  const { runtime } = connection;
  const session = await runtime.sessions.find(message.session_id);
  if (runtime.isRunning(session.id)) {
    throw new RuntimeInputError('The session is running: stop it first, then undo.', { code: 'conflict' });
  }
  const choices = { force: message.force, mode: message.mode };
  if (message.action === 'undo') await runtime.checkpoints.undo(session.id, choices);
  else if (message.action === 'redo') await runtime.checkpoints.redo(session.id, choices);
  else {
    if (message.to === undefined && message.task_id === undefined) {
      throw new RuntimeInputError('A rewind needs `to` (a checkpoint number) or `task_id`.');
    }
    await runtime.checkpoints.rewind(session.id, { to: message.to, task: message.task_id }, choices);
  }
}

async function answer(connection: ClientConnection, requestId: string, reply: RequestAnswer): Promise<void> {
  const result = await connection.taskweave.answer(requestId, reply);
  if (!result.ok) throw new RuntimeInputError(result.error, { code: result.code });
}

/** The one question waiting in the connection's session, for an answer that names none. */
function onlyInputRequest(connection: ClientConnection): string {
  const waiting = connection.runtime
    .pendingRequests()
    .filter((request) => request.kind === 'input' && request.sessionId === connection.activeSession);
  if (waiting.length === 1) return waiting[0]!.requestId;
  throw new RuntimeInputError(
    waiting.length === 0
      ? 'No question is waiting for an answer in this session.'
      : 'Several questions are waiting: give the request_id of the one you answer.',
    { code: waiting.length === 0 ? 'not_found' : 'bad_input' },
  );
}
