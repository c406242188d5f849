import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { type AccessGuard, TOKEN_COOKIE } from '../access.js';

/** Where the built web UI is: `dist/web/` of the package, from `src/server/` and `dist/server/` alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>taskweave</title>
<p>The web UI is not built in this copy of taskweave. Run <code>npm run build</code> and start
<code>taskweave serve</code> again; the REST API and the WebSocket work meanwhile.</p>`;

/**
 * The web UI: the URL's first visit (`/?token=…`) sets the token cookie and redirects to `/`, so
 * the token leaves the address bar and the browser history; the page and its assets come from
 * the built app.
 */
export async function webRoutes(app: FastifyInstance, options: { guard: AccessGuard; webRoot: string }) {
  const { guard, webRoot } = options;
  const built = existsSync(path.join(webRoot, 'index.html'));
  if (built) await app.register(fastifyStatic, { root: webRoot, index: false, wildcard: true });
  app.get('/', async (request, reply) => {
    const { token } = request.query as { token?: unknown };
    if (typeof token === 'string' && guard.tokenMatches(token)) {
      const cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
      return reply.header('set-cookie', cookie).redirect('/', 303);
    }
    if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.header('cache-control', 'no-store').sendFile('index.html');
  });
}
