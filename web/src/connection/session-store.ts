import type { ApprovalModeChoice, ClientMessageInput } from '../../../src/events/client-messages.js';
import type { ServerEvent, TopLevelOf } from '../../../src/events/registry.js';
import { emptySessionView, foldSessionEvent, type SessionView } from '../../../src/events/session-view.js';
import { type ConnectionState, ServerSocket } from './socket.js';

/** The run settings a chat message carries (the controls beside the input). */
export interface RunControls {
  maxSteps: number;
  loop: 'react' | 'roa';
  plan: 'auto' | 'always' | 'never';
}

/** What the page shows, kept in one place: every watched session's view, folded from its events. */
export interface StoreState {
  connection: ConnectionState;
  views: Readonly<Record<string, SessionView>>;
  /** Each session's last `chat_accepted`: 0 = its run started, N = queued behind N others. */
  queued: Readonly<Record<string, number>>;
  /** Errors the server sent outside any session (a message it could not take). */
  errors: readonly string[];
  /** The server's approval mode and sandbox, as its last `approval_mode` said (undefined before it did). */
  safety?: TopLevelOf<'approval_mode'>;
}

/** How long events are gathered before the page renders them (a run streams word by word). */
const RENDER_BATCH_MS = 16;

/**
 * The page's one connection to the server and the state folded from it. Components read the
 * state (useStore) and call the methods; no rule of the run lives here, only the wire.
 */
export class SessionStore {
  private state: StoreState = { connection: 'connecting', views: {}, queued: {}, errors: [] };
  private readonly listeners = new Set<() => void>();
  private readonly watched = new Set<string>();
  private readonly socket: ServerSocket;
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;
  private waitingForSession: ((sessionId: string) => void) | undefined;

  constructor() {
    this.socket = new ServerSocket(
      {
        onEvent: (event) => this.receive(event),
        onState: (connection) => this.update({ ...this.state, connection }),
      },
      () => [...this.watched].map((id) => this.subscribeMessage(id)),
    );
  }

  /** Opens the connection. */
  connect(): void {
    this.socket.connect();
  }

  /** Closes the connection for good (the page has no valid token). */
  disconnect(): void {
    this.socket.close();
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** For useSyncExternalStore. */
  readonly getState = (): StoreState => this.state;

  /** Shows a session: replays its log (from what is already shown), then streams it live. */
  watch(sessionId: string): void {
    if (this.watched.has(sessionId)) return;
    this.watched.add(sessionId);
    if (!this.state.views[sessionId]) this.setView(sessionId, emptySessionView(sessionId));
    if (this.state.connection === 'open') this.socket.send(this.subscribeMessage(sessionId));
  }

  /**
   * Sends a goal: into `sessionId` to continue it, or a new session, whose id `onSession` gets
   * once the server has accepted the message.
   */
  chat(options: {
    content: string;
    /** The hashes of the images the message carries (uploaded first: POST /api/images). */
    images?: readonly string[];
    sessionId?: string;
    controls: RunControls;
    onSession?: (id: string) => void;
  }) {
    const { controls } = options;
    this.waitingForSession = options.sessionId === undefined ? options.onSession : undefined;
    this.socket.send({
      type: 'chat',
      content: options.content,
      ...(options.images?.length ? { images: [...options.images] } : {}),
      session_id: options.sessionId,
      agent_mode: 'auto',
      agent_max_steps: controls.maxSteps,
      loop: controls.loop,
      plan: controls.plan,
    });
  }

  /** Stops the session's run at its next phase boundary. */
  stop(sessionId: string): void {
    this.socket.send({ type: 'agent_control', action: 'stop', session_id: sessionId });
  }

  /** Answers a question of the agent. */
  answer(requestId: string, content: string): void {
    this.socket.send({ type: 'agent_user_input', request_id: requestId, content });
  }

  /** Approves or rejects a proposed plan. */
  decidePlan(planId: string, decision: 'approve' | 'reject', feedback?: string): void {
    this.socket.send({ type: 'plan_decision', plan_id: planId, decision, feedback });
  }

  /** Decides about a failed plan task. */
  decideFailure(
    requestId: string,
    decision: 'retry' | 'resolve' | 'skip' | 'revise' | 'abort',
    feedback?: string,
  ): void {
    this.socket.send({ type: 'failure_decision', request_id: requestId, decision, feedback });
  }

  /** Switches the server's approval mode; every client (this one too) hears it back as `approval_mode`. */
  setApprovalMode(mode: ApprovalModeChoice): void {
    this.socket.send({ type: 'set_approval_mode', mode });
  }

  decideApproval(requestId: string, decision: 'allow' | 'deny' | 'always', reason?: string): void {
    this.socket.send({ type: 'approval_decision', request_id: requestId, decision, reason });
  }

  /**
   * Undoes, rewinds or redoes a session's checkpoints; every client following the session hears
   * checkpoint_restored (or this one an error).
   */
  restore(
    sessionId: string,
    action: 'undo' | 'rewind' | 'redo',
    options: { to?: number; taskId?: string; mode?: 'code' | 'conversation' | 'both' } = {},
  ): void {
    this.socket.send({
      type: 'restore_checkpoint',
      session_id: sessionId,
      action,
      to: options.to,
      task_id: options.taskId,
      mode: options.mode,
    });
  }

  /** Sends any client message (for what has no method of its own). */
  send(message: ClientMessageInput): void {
    this.socket.send(message);
  }

  /** Forgets the errors shown. */
  dismissErrors(): void {
    this.update({ ...this.state, errors: [] });
  }

  private subscribeMessage(sessionId: string): ClientMessageInput {
    return { type: 'subscribe', session_id: sessionId, after_seq: this.state.views[sessionId]?.lastSeq ?? 0 };
  }

  private receive(event: ServerEvent): void {
    if (event.type === 'chat_accepted') {
      this.accepted(event);
      return;
    }
    if (event.type === 'approval_mode') {
      const { mode, sandbox, network } = event;
      this.update({ ...this.state, safety: { type: 'approval_mode', mode, sandbox, network } });
      return;
    }
    const id = event.session_id;
    if (!id) {
      if (event.type === 'error')
        this.update({ ...this.state, errors: [...this.state.errors, event.message] });
      return;
    }
    const view = this.state.views[id] ?? emptySessionView(id);
    const folded = foldSessionEvent(view, event);
    if (folded === view) return;
    if (event.type === 'agent_update' && event.update_type === 'agent_start' && id in this.state.queued) {
      const { [id]: _started, ...queued } = this.state.queued;
      this.update({ ...this.state, queued });
    }
    this.setView(id, folded);
  }

  private accepted(accepted: TopLevelOf<'chat_accepted'> & { session_id: string }): void {
    const id = accepted.session_id;
    // A chat subscribes its connection to the session on the server.
    this.watched.add(id);
    const views = this.state.views[id]
      ? this.state.views
      : { ...this.state.views, [id]: emptySessionView(id) };
    this.update({ ...this.state, views, queued: { ...this.state.queued, [id]: accepted.position } });
    const waiting = this.waitingForSession;
    this.waitingForSession = undefined;
    waiting?.(id);
  }

  private setView(id: string, view: SessionView): void {
    this.update({ ...this.state, views: { ...this.state.views, [id]: view } });
  }

  private update(state: StoreState): void {
    this.state = state;
    this.notifyTimer ??= setTimeout(() => {
      this.notifyTimer = undefined;
      for (const listener of this.listeners) listener();
    }, RENDER_BATCH_MS);
  }
}
