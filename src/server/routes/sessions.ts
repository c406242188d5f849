import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ApiCheckpoint, ApiSessionDetail } from '../../events/api.js';
import {
  DEFAULT_EXPORT_FORMAT,
  defaultExportFileName,
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  renderSessionExport,
  sessionImageHashes,
} from '../../export/export-formats.js';
import { apiRun, apiSession, type Runtime } from '../../runtime/index.js';

const listQuery = z.object({ limit: z.coerce.number().int().positive().max(1000).optional() });
const eventsQuery = z.object({ after_seq: z.coerce.number().int().nonnegative().optional() });
const exportQuery = z.object({ format: z.enum(EXPORT_FORMATS).default(DEFAULT_EXPORT_FORMAT) });

/** Sessions: the list, one with its runs, its checkpoints, its logged events after a seq, an export. */
export function sessionRoutes(app: FastifyInstance, runtime: Runtime): void {
  app.get('/api/sessions', async (request) => {
    const { limit } = listQuery.parse(request.query);
    const sessions = await runtime.sessions.list({ limit });
    return { sessions: sessions.map(apiSession) };
  });

  app.get<{ Params: { id: string } }>('/api/sessions/:id', async (request): Promise<ApiSessionDetail> => {
    const summary = await runtime.sessions.summary(request.params.id);
    const detail = await runtime.sessions.detail(summary.session.id);
    return {
      session: apiSession(summary),
      runs: detail.runs.map(apiRun),
      running: runtime.isRunning(summary.session.id),
    };
  });

  app.get<{ Params: { id: string } }>(
    '/api/sessions/:id/checkpoints',
    async (request): Promise<{ checkpoints: ApiCheckpoint[] }> => {
      const { checkpoints } = await runtime.checkpoints.list(request.params.id);
      return {
        checkpoints: checkpoints.map((checkpoint) => ({
          number: checkpoint.number,
          run_id: checkpoint.runId,
          step: checkpoint.step,
          task_id: checkpoint.taskId,
          tools: checkpoint.tools,
          files: checkpoint.files,
          undone: checkpoint.undone,
          created_at: checkpoint.createdAt,
        })),
      };
    },
  );

  app.get<{ Params: { id: string } }>('/api/sessions/:id/events', async (request) => {
    const { after_seq } = eventsQuery.parse(request.query);
    const session = await runtime.sessions.find(request.params.id);
    return { events: await runtime.sessions.events(session.id, after_seq) };
  });

  // A download: the session as markdown, JSON or a self-contained HTML page (sessions export).
  app.get<{ Params: { id: string } }>('/api/sessions/:id/export', async (request, reply) => {
    const { format } = exportQuery.parse(request.query);
    const session = await runtime.sessions.find(request.params.id);
    const events = await runtime.sessions.events(session.id);
    // The HTML page embeds the images of the session's messages; the other formats name them.
    const images =
      format === 'html' ? await runtime.sessions.imageBytes(sessionImageHashes(events)) : undefined;
    const text = renderSessionExport({ session, events, format, images });
    return reply
      .type(EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="${defaultExportFileName(session.id, format)}"`)
      .send(text);
  });
}
