import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiImage } from '../../events/api.js';
import { imageHashSchema } from '../../events/images.js';
import type { Runtime } from '../../runtime/index.js';
import { formatBytes, ImageIntakeError, MAX_IMAGE_INPUT_BYTES } from '../../util/image-intake.js';
import { replyToError, sendError } from '../http-errors.js';

/** A year: an image's URL names its bytes (their hash), which never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The largest body read: a little past the limit, so that the intake refuses most large ones with their exact size. */
const BODY_LIMIT = MAX_IMAGE_INPUT_BYTES + 1024 * 1024;

const STATUS_OF_REFUSAL = { too_large: 413, unsupported_type: 415, unreadable: 400 } as const;
const CODE_OF_REFUSAL = {
  too_large: 'image_too_large',
  unsupported_type: 'unsupported_image_type',
  unreadable: 'bad_image',
} as const;

/**
 * Images for the model: `POST /api/images` takes the raw bytes (whatever the Content-Type: the type
 * is read from the bytes) and answers 201 with the record; `GET /api/images/:hash` serves them.
 */
export async function imageRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  await app.register(async (scope) => {
    // Only here every body is raw bytes, up to a little past the limit so that a larger one is
    // refused by the intake with its size rather than cut short by the parser.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    // A body past that limit is cut off by the parser: refused as the intake refuses a large image.
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return replyToError(error, request, reply);
      const length = Number(request.headers['content-length']);
      const size =
        Number.isFinite(length) && length > 0 ? formatBytes(length) : `more than ${formatBytes(BODY_LIMIT)}`;
      return sendError(
        reply,
        413,
        'image_too_large',
        `The image is ${size}; the limit is ${formatBytes(MAX_IMAGE_INPUT_BYTES)}.`,
      );
    });
    scope.post('/api/images', async (request, reply): Promise<ApiImage | undefined> => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.byteLength === 0) {
        sendError(reply, 400, 'bad_image', 'The request has no image: send its bytes as the body.');
        return undefined;
      }
      try {
        const taken = await runtime.takeImage(body);
        reply.code(201);
        return taken.record;
      } catch (error) {
        if (!(error instanceof ImageIntakeError)) throw error;
        sendError(reply, STATUS_OF_REFUSAL[error.code], CODE_OF_REFUSAL[error.code], error.message);
        return undefined;
      }
    });
  });

  app.get<{ Params: { hash: string } }>('/api/images/:hash', async (request, reply) => {
    const hash = imageHashSchema.safeParse(request.params.hash);
    if (!hash.success)
      return sendError(
        reply,
        400,
        'bad_image',
        `"${request.params.hash}" is not an image hash: ${hash.error.issues[0]?.message}.`,
      );
    const image = await runtime.image(hash.data);
    if (image === undefined)
      return sendError(reply, 404, 'unknown_image', `No image is stored with the hash ${hash.data}.`);
    return reply
      .type(image.record.media_type)
      .header('cache-control', IMMUTABLE)
      .send(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
  });
}
