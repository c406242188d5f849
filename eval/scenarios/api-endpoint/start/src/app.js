import Fastify from 'fastify';
import { healthRoutes } from './routes/health.js';

/** Builds the app without listening, so that tests can inject requests. */
export function buildApp() {
  const app = Fastify();
  app.register(healthRoutes);
  return app;
}
