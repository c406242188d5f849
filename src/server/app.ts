import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { SOCKET_PROTOCOL } from '../events/access-token.js';
import { MAX_CLIENT_FRAME_BYTES } from '../events/client-messages.js';
import { type Runtime, Taskweave } from '../runtime/index.js';
import type { AccessGuard } from './access.js';
import { replyToError, sendError } from './http-errors.js';
import { commandRoutes } from './routes/commands.js';
import { goalRoutes } from './routes/goals.js';
import { healthRoutes } from './routes/health.js';
import { imageRoutes } from './routes/images.js';
import { sessionRoutes } from './routes/sessions.js';
import { taskRoutes } from './routes/tasks.js';
import { DEFAULT_WEB_ROOT, webRoutes } from './routes/web.js';
import { securityHeaders } from './security-headers.js';
import { closeSockets } from './socket/close-sockets.js';
import { Connection, DEFAULT_SOCKET_LIMITS, type SocketLimits } from './socket/connection.js';

/**
 * Frames up to this size are read (and answered with an `error` past MAX_CLIENT_FRAME_BYTES);
 * a larger one closes the connection (1009) without being buffered whole.
 */
export const HARD_FRAME_LIMIT_BYTES = 16 * MAX_CLIENT_FRAME_BYTES;

export interface AppOptions {
  runtime: Runtime;
  guard: AccessGuard;
  webRoot?: string;
  socket?: Partial<SocketLimits>;
}

/** Builds the server (REST, WebSocket, web UI) over a runtime. It never listens: see `serve`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { runtime, guard } = options;
  const limits = { ...DEFAULT_SOCKET_LIMITS, ...options.socket };
  // No request logging: headers carry the token.
  // forceCloseConnections: stopping the server does not wait for clients that keep connections open.
  const app = Fastify({ logger: false, bodyLimit: MAX_CLIENT_FRAME_BYTES, forceCloseConnections: true });
  app.setErrorHandler(replyToError);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
  );
  // Registered before the access hook: its own hooks mark upgrade requests, so that a refused
  // upgrade's socket is closed after the 401/403. A browser offers the token as a subprotocol
  // beside SOCKET_PROTOCOL; the server accepts (echoes) only the latter.
  await app.register(fastifyWebsocket, {
    options: {
      maxPayload: HARD_FRAME_LIMIT_BYTES,
      handleProtocols: (offered) => (offered.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
    },
    // Stopping does not wait for a client that does not read (ws alone would wait 30 s for it).
    preClose: async () => closeSockets(app.websocketServer),
  });
  app.addHook('onRequest', async (request, reply) => {
    const host = request.headers.host;
    reply.headers(securityHeaders(guard.allowsHost(host) ? host.toLowerCase() : undefined));
    const refusal = guard.check(request, { tokenRequired: !isAppShell(request) });
    if (refusal) return sendError(reply, refusal.status, refusal.code, refusal.message);
  });
  // Goals, stops and answers from the socket go through the SDK's face, as any program's do.
  const taskweave = new Taskweave(runtime);
  app.get('/ws', { websocket: true }, (socket) => new Connection(socket, taskweave, limits).start());
  healthRoutes(app, runtime);
  sessionRoutes(app, runtime);
  taskRoutes(app, runtime);
  commandRoutes(app, runtime);
  goalRoutes(app, runtime);
  await imageRoutes(app, runtime);
  await webRoutes(app, { webRoot: options.webRoot ?? DEFAULT_WEB_ROOT });
  return app;
}

/**
 * Whether a request is for the web app's own files (the page and its assets), which carry no
 * secret and are served without the token: the page reads the token from the URL's fragment,
 * which the browser never sends. Every API route and the WebSocket need it.
 */
function isAppShell(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const route = request.routeOptions.url;
  return (route === '/' || route === '/*') && !request.url.startsWith('/api/');
}
