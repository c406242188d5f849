/** GET /health: the service is up. */
export async function healthRoutes(app) {
  app.get('/health', async () => ({ status: 'ok' }));
}
