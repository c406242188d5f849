import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { ApiError } from '../events/api.js';
import { RuntimeInputError } from '../runtime/index.js';

/** Sends `{ error: { code, message } }` with a status. */
export function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  const body: ApiError = { error: { code, message } };
  return reply.code(status).type('application/json').send(body);
}

const STATUS_OF_INPUT_ERROR = { bad_input: 400, not_found: 404, conflict: 409 } as const;

/** What a route's error becomes: the user's mistakes 4xx with their message, the rest 500. */
export function replyToError(error: FastifyError | Error, _request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RuntimeInputError)
    return sendError(reply, STATUS_OF_INPUT_ERROR[error.code], error.code, error.message);
  if (error instanceof ZodError) return sendError(reply, 400, 'bad_input', zodMessage(error));
  const fastifyError = error as FastifyError;
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500)
    return sendError(reply, fastifyError.statusCode, fastifyError.code ?? 'bad_request', error.message);
  return sendError(reply, 500, 'internal', `taskweave failed: ${error.message}`);
}

/** A zod error as one line a person can act on: `field: problem; …`. */
export function zodMessage(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
