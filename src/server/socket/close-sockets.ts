import type { WebSocketServer } from 'ws';

/** How long the server's clients have to answer its close frame when it shuts down. */
export const SHUTDOWN_CLOSE_GRACE_MS = 1_000;

/**
 * Closes every WebSocket of a stopping server: a close frame (1001, going away), then, for a
 * client that has not answered within `graceMs` — one that stopped reading with a full socket
 * buffer never will — the connection is cut. Without the cut, `ws` waits 30 s for each such
 * client and the server's `close()` with it.
 */
export async function closeSockets(
  server: WebSocketServer,
  graceMs = SHUTDOWN_CLOSE_GRACE_MS,
): Promise<void> {
  const clients = [...server.clients];
  if (clients.length === 0) return;
  const closed = clients.map(
    (client) =>
      new Promise<void>((resolve) => {
        if (client.readyState === client.CLOSED) return resolve();
        client.once('close', () => resolve());
      }),
  );
  for (const client of clients) client.close(1001, 'taskweave serve is stopping');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  if ((await Promise.race([Promise.all(closed), late])) === 'late')
    for (const client of clients) client.terminate();
  clearTimeout(timer);
  await Promise.all(closed);
}
