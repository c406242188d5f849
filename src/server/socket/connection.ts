import type { WebSocket } from 'ws';
import type { ServerEvent } from '../../events/registry.js';
import type { Runtime, Taskweave } from '../../runtime/index.js';
import { parseFrame } from './frames.js';
import { approvalModeEvent, type ClientConnection, handleMessage } from './messages.js';

/** The limits of one WebSocket connection. */
export interface SocketLimits {
  /** A connection that answers no ping within this time is dropped. */
  heartbeatMs: number;
  /** A client that lets more than this many bytes pile up unsent is dropped (it resubscribes from its last seq). */
  maxBufferedBytes: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = { heartbeatMs: 30_000, maxBufferedBytes: 8 * 1024 * 1024 };

/** The close code for a client dropped for reading too slowly. */
export const SLOW_CLIENT_CLOSE_CODE = 4008;
/** How long a dropped slow client has to read what was queued before its connection is cut. */
export const SLOW_CLIENT_GRACE_MS = 2_000;

/** One client's connection: what it follows and how to reach it. */
export class Connection implements ClientConnection {
  private readonly subscriptions = new Map<string, () => void>();
  private offApprovalMode: (() => void) | undefined;
  activeSession: string | undefined;
  private closed = false;

  readonly runtime: Runtime;

  constructor(
    private readonly socket: WebSocket,
    readonly taskweave: Taskweave,
    private readonly limits: SocketLimits,
  ) {
    this.runtime = taskweave.runtime;
  }

  /** Serves the connection until it closes. */
  start(): void {
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) {
        this.socket.terminate();
        return;
      }
      alive = false;
      this.socket.ping();
    }, this.limits.heartbeatMs);
    this.socket.on('pong', () => {
      alive = true;
    });
    this.socket.on('message', (data: Buffer, isBinary: boolean) => {
      const frame = parseFrame(data, isBinary);
      if (!frame.ok) {
        this.sendError(frame.code, frame.message);
        return;
      }
      handleMessage(this, frame.message).catch((error: unknown) => {
        const code = (error as { code?: unknown }).code;
        this.sendError(typeof code === 'string' ? code : 'internal', (error as Error).message);
      });
    });
    this.socket.on('close', () => {
      clearInterval(heartbeat);
      this.close();
    });
    // The client learns the approval mode at once, and every switch of it, whoever made it.
    this.send(approvalModeEvent(this.runtime));
    this.offApprovalMode = this.runtime.safety.onApprovalModeChange(() =>
      this.send(approvalModeEvent(this.runtime)),
    );
  }

  /** Follows a session from `afterSeq` (a second subscribe to it starts over from its own seq). */
  follow(sessionId: string, afterSeq: number): void {
    this.subscriptions.get(sessionId)?.();
    this.subscriptions.set(
      sessionId,
      this.runtime.subscribe(sessionId, afterSeq, (event) => this.send(event)),
    );
  }

  isFollowing(sessionId: string): boolean {
    return this.subscriptions.has(sessionId);
  }

  /** Sends a message; a client that reads too slowly is dropped instead of growing the server's memory. */
  send(message: ServerEvent): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) {
      // Nothing more is queued for it: memory stays bounded. The close frame follows what is
      // queued; a client that does not read even that is cut off after SLOW_CLIENT_GRACE_MS.
      this.close();
      this.socket.close(SLOW_CLIENT_CLOSE_CODE, 'too slow: reconnect and subscribe from your last seq');
      setTimeout(() => this.socket.terminate(), SLOW_CLIENT_GRACE_MS).unref();
      return;
    }
    this.socket.send(JSON.stringify(message));
  }

  /** Sends an `error` message (not logged: seq 0). */
  sendError(code: string, message: string, sessionId = this.activeSession ?? ''): void {
    this.send({ type: 'error', code, message, session_id: sessionId, run_id: '', seq: 0, ts: Date.now() });
  }

  private close(): void {
    this.closed = true;
    this.offApprovalMode?.();
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }
}
