import type { ImagePart, ModelMessage } from 'ai';
import { type ImageRecord, imageRecordSchema, type StoredImagePart } from '../../events/images.js';
import type { ImageLog } from '../../store/ports.js';

/*
 * Images in a conversation. In memory an image is the AI SDK's image part, its bytes loaded from
 * the store and its record in the part's provider options (providers read only their own key);
 * stored, it is `{ type: "image", hash, media_type, width, height }` and the bytes stay in the
 * images table, once.
 */

/** A conversation's image part for a stored image. */
export function imagePart(record: ImageRecord, bytes: Uint8Array): ImagePart {
  return {
    type: 'image',
    // A plain view (not a Buffer, whose toJSON would spell every byte out when a message is measured).
    image: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    mediaType: record.media_type,
    providerOptions: { taskweave: { image: { ...record } } },
  };
}

/** The record of a conversation's image part, or undefined for any other part. */
export function imageRecordOfPart(part: unknown): ImageRecord | undefined {
  if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== 'image')
    return undefined;
  const options = (part as ImagePart).providerOptions?.taskweave?.image;
  const parsed = imageRecordSchema.safeParse(options);
  return parsed.success ? parsed.data : undefined;
}

/** The records of every image part of some messages, in order. */
export function imagesOf(messages: readonly ModelMessage[]): ImageRecord[] {
  return messages.flatMap((message) =>
    Array.isArray(message.content) ? message.content.flatMap((part) => imageRecordOfPart(part) ?? []) : [],
  );
}

/** A message's content as it is stored: image parts as their records, the rest as it is. */
export function storedContent(content: ModelMessage['content']): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part) => {
    const record = imageRecordOfPart(part);
    return record === undefined ? part : ({ type: 'image', ...record } satisfies StoredImagePart);
  });
}

/**
 * A stored message's content with its images' bytes loaded from the store. An image the store no
 * longer holds becomes a short text saying so (the conversation goes on without it).
 */
export async function loadedContent(content: unknown, images: ImageLog): Promise<unknown> {
  if (!Array.isArray(content)) return content;
  const loaded: unknown[] = [];
  for (const part of content) {
    const record = storedImageRecord(part);
    if (record === undefined) {
      loaded.push(part);
      continue;
    }
    const stored = await images.get(record.hash);
    loaded.push(
      stored === undefined
        ? { type: 'text', text: imageMarker(record, 'no longer stored') }
        : imagePart(record, stored.bytes),
    );
  }
  return loaded;
}

function storedImageRecord(part: unknown): ImageRecord | undefined {
  if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== 'image')
    return undefined;
  const { type: _type, ...fields } = part as Record<string, unknown>;
  const parsed = imageRecordSchema.safeParse(fields);
  return parsed.success ? parsed.data : undefined;
}

/** The short text an image leaves where it was taken out: its type, size in pixels and hash. */
export function imageMarker(record: ImageRecord, why: string): string {
  return `[image ${record.media_type} ${record.width}×${record.height} sha256:${record.hash.slice(0, 12)} — ${why}]`;
}

/**
 * The messages with every image replaced by its marker (compaction drops images first), and the
 * images dropped; messages without images are the same objects.
 */
export function withoutImages(messages: readonly ModelMessage[]): {
  messages: ModelMessage[];
  dropped: ImageRecord[];
} {
  const dropped: ImageRecord[] = [];
  const result = messages.map((message): ModelMessage => {
    if (message.role !== 'user' || !Array.isArray(message.content)) return message;
    if (!message.content.some((part) => part.type === 'image')) return message;
    const content = message.content.map((part) => {
      if (part.type !== 'image') return part;
      const record = imageRecordOfPart(part);
      if (record !== undefined) dropped.push(record);
      return {
        type: 'text' as const,
        text:
          record === undefined
            ? '[image dropped to save context]'
            : imageMarker(record, 'dropped to save context'),
      };
    });
    return { ...message, content };
  });
  return { messages: result, dropped };
}
