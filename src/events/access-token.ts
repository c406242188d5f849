/**
 * How a client shows `taskweave serve` its access token. The token travels in the URL's fragment
 * (`/#token=…`, never sent to a server nor in a Referer), then as `Authorization: Bearer <token>`
 * on REST calls and, since a browser cannot set headers on a WebSocket, as a subprotocol value
 * of the upgrade. No cookie: cookies ignore ports, so one would reach every server on 127.0.0.1.
 */

/** The subprotocol the server accepts and echoes; a browser offers it beside the token's. */
export const SOCKET_PROTOCOL = 'taskweave';

/** The prefix of the subprotocol value that carries the token (`taskweave.token.<token>`). */
export const TOKEN_PROTOCOL_PREFIX = 'taskweave.token.';

/** The fragment key of the URL `serve` prints (`http://127.0.0.1:PORT/#token=…`). */
export const TOKEN_FRAGMENT_KEY = 'token';

/** The subprotocols a WebSocket client offers: the accepted one, then the token's. */
export function socketProtocols(token: string): [string, string] {
  return [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
}
