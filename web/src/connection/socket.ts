import { SOCKET_PROTOCOL, socketProtocols } from '../../../src/events/access-token.js';
import type { ClientMessageInput } from '../../../src/events/client-messages.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { accessToken } from './access-token.js';

/** What the socket tells its owner. */
export interface SocketListener {
  onEvent(event: ServerEvent): void;
  onState(state: ConnectionState): void;
}

/** `open` once connected; `reconnecting` after a loss, until it is back. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

const FIRST_RETRY_MS = 300;
const LONGEST_RETRY_MS = 5000;

/**
 * The WebSocket to `/ws` (same origin; the tab's token goes as a subprotocol value, the one header
 * a browser lets a page set on a WebSocket). A lost connection is opened again on its own, with a
 * growing delay; `onOpen` then subscribes again from each session's last seq, so nothing is
 * missed and nothing shown twice.
 */
export class ServerSocket {
  private socket: WebSocket | undefined;
  private retryMs = FIRST_RETRY_MS;
  private closed = false;
  private readonly queue: string[] = [];

  constructor(
    private readonly listener: SocketListener,
    /** Messages to send first on every (re)connection: the subscriptions. */
    private readonly onOpen: () => ClientMessageInput[],
  ) {}

  /** Opens the connection. */
  connect(): void {
    const url = new URL('/ws', window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = accessToken();
    const socket = new WebSocket(url, token === undefined ? [SOCKET_PROTOCOL] : socketProtocols(token));
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retryMs = FIRST_RETRY_MS;
      this.listener.onState('open');
      for (const message of this.onOpen()) socket.send(JSON.stringify(message));
      for (const frame of this.queue.splice(0)) socket.send(frame);
    });
    socket.addEventListener('message', (message) => this.receive(String(message.data)));
    socket.addEventListener('close', () => {
      if (this.closed) return;
      this.listener.onState('reconnecting');
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
    });
  }

  /** Sends a message now, or as soon as the connection is back. */
  send(message: ClientMessageInput): void {
    const frame = JSON.stringify(message);
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(frame);
    else this.queue.push(frame);
  }

  /** Closes for good (no reconnection). */
  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private receive(data: string): void {
    let message: { type?: unknown };
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    this.listener.onEvent(message as ServerEvent);
  }
}
