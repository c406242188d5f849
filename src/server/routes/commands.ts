import type { FastifyInstance } from 'fastify';
import type { ApiCommands } from '../../events/api.js';
import type { Runtime } from '../../runtime/index.js';

/**
 * The custom commands (Markdown files of the project and the user) the web composer offers as
 * `/name`: name, description, where it comes from, and the files that could not be used. The
 * composer sends `/name args` as a chat message; the server expands it (socket/messages.ts).
 */
export function commandRoutes(app: FastifyInstance, runtime: Runtime): void {
  app.get('/api/commands', async (): Promise<ApiCommands> => {
    const { commands, problems } = await runtime.customCommands();
    return {
      commands: commands.map((command) => ({
        name: command.name,
        source: command.source,
        ...(command.description !== undefined ? { description: command.description } : {}),
      })),
      problems,
    };
  });
}
