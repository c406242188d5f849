import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { packageRoot } from '../../util/package-root.js';

/** Where the built web UI is: `dist/web/` of the package, from `src/server/` and `dist/server/` alike. */
export const DEFAULT_WEB_ROOT = path.join(packageRoot(), 'dist', 'web');

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>taskweave</title>
<p>The web UI is not built in this copy of taskweave. Run <code>npm run build</code> and start
<code>taskweave serve</code> again; the REST API and the WebSocket work meanwhile.</p>`;

/**
 * The web UI: the page and its assets, served without the token (the page finds it in the URL's
 * fragment, `/#token=…`, and sends it with every API call and the WebSocket).
 */
export async function webRoutes(app: FastifyInstance, options: { webRoot: string }) {
  const { webRoot } = options;
  const built = existsSync(path.join(webRoot, 'index.html'));
  if (built) await app.register(fastifyStatic, { root: webRoot, index: false, wildcard: true });
  app.get('/', async (_request, reply) => {
    if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.header('cache-control', 'no-store').sendFile('index.html');
  });
}
