import { z } from 'zod';

/*
 * Images given to the model (README, "Images"): stored once by the sha256 of their bytes and
 * named everywhere else by a record; the bytes are never inlined in an event or a message.
 */

import { IMAGE_MEDIA_TYPES } from './image-types.js';

export { IMAGE_MEDIA_TYPES, type ImageMediaType } from './image-types.js';

/** The most images one message (a goal, a chat message) may carry. */
export const MAX_IMAGES_PER_MESSAGE = 8;

/** An image's hash: the sha256 of its stored bytes, 64 lowercase hex digits. */
export const imageHashSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'an image hash is the sha256 of its bytes in 64 lowercase hex digits');

/** What names a stored image: its hash, its type and its size in pixels. */
export const imageRecordSchema = z.strictObject({
  hash: imageHashSchema,
  media_type: z.enum(IMAGE_MEDIA_TYPES),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
/** A stored image as events, messages and the API name it. */
export type ImageRecord = z.infer<typeof imageRecordSchema>;

/** An image in a stored user message's content: the record, tagged as a content part. */
export type StoredImagePart = { type: 'image' } & ImageRecord;
