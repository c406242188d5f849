import { TodoService } from '../services/todo-service.js';

/** GET /todos/:id: one todo, or 404. */
export async function todoRoutes(app) {
  const service = new TodoService();
  app.get('/todos/:id', async (request, reply) => {
    const todo = service.findById(request.params.id);
    if (todo === undefined) return reply.code(404).send({ error: 'not found' });
    return todo;
  });
}
