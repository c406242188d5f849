import { TOKEN_FRAGMENT_KEY } from '../events/access-token.js';
import type { Runtime, WorkOutcome } from '../runtime/index.js';
import { AccessGuard, newAccessToken } from './access.js';
import { buildApp } from './app.js';
import type { SocketLimits } from './socket/connection.js';

/** How often the server's worker looks for queued work when the queue is empty. */
export const SERVER_QUEUE_POLL_MS = 250;

export interface ServeOptions {
  runtime: Runtime;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The access token; a random one when left out. */
  token?: string;
  webRoot?: string;
  socket?: Partial<SocketLimits>;
  /** Work the queue in this process too (the default); false leaves it to `taskweave work` workers. */
  work?: boolean;
}

/** A listening server. */
export interface RunningServer {
  /** The URL to open, with the token in its fragment (which the browser never sends to a server). */
  url: string;
  host: string;
  port: number;
  token: string;
  /** Stops the runs at their next phase boundary, waits for them, closes every connection. */
  close(): Promise<void>;
}

/**
 * Starts `taskweave serve` over an open runtime: the app on host:port, and a worker that drains
 * the workspace's queue (goals sent over the WebSocket, added through REST or by
 * `taskweave tasks add` run one after another).
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { runtime } = options;
  const token = options.token ?? newAccessToken();
  const guard = new AccessGuard(token);
  const app = await buildApp({ runtime, guard, webRoot: options.webRoot, socket: options.socket });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  guard.listeningOn(options.host, port);
  const worker: Promise<WorkOutcome | undefined> =
    options.work === false
      ? Promise.resolve(undefined)
      : runtime.work({ watch: true, pollMs: SERVER_QUEUE_POLL_MS }).catch((error: unknown) => {
          runtime.notice(`The queue worker stopped: ${(error as Error).message}`);
          return undefined;
        });
  const urlHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const shownHost = urlHost === '0.0.0.0' || urlHost === '[::]' ? '127.0.0.1' : urlHost;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/#${TOKEN_FRAGMENT_KEY}=${token}`,
    host: options.host,
    port,
    token,
    close: () => {
      closing ??= (async () => {
        runtime.stop();
        await Promise.all([worker, runtime.settled()]);
        await app.close();
      })();
      return closing;
    },
  };
}
