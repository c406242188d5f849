import type { FastifyInstance } from 'fastify';
import type { ApiHealth } from '../../events/api.js';
import type { Runtime } from '../../runtime/index.js';
import { VERSION } from '../../util/version.js';

/** `GET /api/health`: the server is up, with the workspace, the model and the run defaults. */
export function healthRoutes(app: FastifyInstance, runtime: Runtime): void {
  app.get('/api/health', async (): Promise<ApiHealth> => {
    const { settings } = runtime;
    return {
      status: 'ok',
      version: VERSION,
      workspace: runtime.workspace.root,
      model: runtime.model.id,
      price: runtime.price ?? null,
      defaults: { max_steps: settings.maxSteps, loop: settings.loop ?? 'react', plan: settings.plan },
    };
  });
}
