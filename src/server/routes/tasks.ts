import type { FastifyInstance } from 'fastify';
import { addTaskBodySchema, completeTaskBodySchema } from '../../events/api.js';
import { apiPlan, apiTask, type Runtime } from '../../runtime/index.js';

type ById = { Params: { id: string } };

/**
 * The to-do list and plans, with the rules of `taskweave tasks`: ids may be unique prefixes, a
 * finished task cannot be finished again, a running task is cancelled before it can be deleted.
 * A task added here runs when the server's worker reaches it.
 */
export function taskRoutes(app: FastifyInstance, runtime: Runtime): void {
  app.get('/api/tasks', async () => {
    const tree = await runtime.tasks.tree();
    const usage = await runtime.tasks.usage(tree.map((task) => task.id));
    return { tasks: tree.map((task) => apiTask(task, usage)) };
  });

  app.post('/api/tasks', async (request, reply) => {
    const body = addTaskBodySchema.parse(request.body ?? {});
    const { task, position } = await runtime.tasks.add(body);
    return reply.code(201).send({ task: apiTask(task), position });
  });

  app.post<ById>('/api/tasks/:id/complete', async (request) => {
    const { summary } = completeTaskBodySchema.parse(request.body ?? {});
    return { task: apiTask(await runtime.tasks.finish(request.params.id, 'complete', summary)) };
  });

  app.post<ById>('/api/tasks/:id/cancel', async (request) => ({
    task: apiTask(await runtime.tasks.cancel(request.params.id)),
  }));

  app.delete<ById>('/api/tasks/:id', async (request) => ({
    task: apiTask(await runtime.tasks.delete(request.params.id)),
  }));

  app.get<ById>('/api/plans/:id', async (request) => apiPlan(await runtime.tasks.plan(request.params.id)));
}
