import type { ImagePart, ModelMessage, ToolResultPart } from 'ai';
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

/** A tool result's output in content parts. */
type ContentOutput = Extract<ToolResultPart['output'], { type: 'content' }>;
/** One content part of a tool result's output. */
type OutputPart = ContentOutput['value'][number];

/**
 * A tool result's output with an image (read_file of an image file): its text, then the image
 * as base64 data, its record in the part's provider options as for a message's image part.
 */
export function imageToolOutput(text: string, record: ImageRecord, bytes: Uint8Array): ContentOutput {
  return {
    type: 'content',
    value: [
      { type: 'text', text },
      {
        type: 'image-data',
        data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
        mediaType: record.media_type,
        providerOptions: { taskweave: { image: { ...record } } },
      },
    ],
  };
}

/** The record of a conversation's image part (of a message, or of a tool result's output), or undefined for any other part. */
export function imageRecordOfPart(part: unknown): ImageRecord | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const type = (part as { type?: unknown }).type;
  if (type !== 'image' && type !== 'image-data') return undefined;
  const options = (part as ImagePart).providerOptions?.taskweave?.image;
  const parsed = imageRecordSchema.safeParse(options);
  return parsed.success ? parsed.data : undefined;
}

/** The records of every image part of some messages (tool results' images included), in order. */
export function imagesOf(messages: readonly ModelMessage[]): ImageRecord[] {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part) =>
          part.type === 'tool-result'
            ? outputParts(part).flatMap((inner) => imageRecordOfPart(inner) ?? [])
            : (imageRecordOfPart(part) ?? []),
        )
      : [],
  );
}

/** The images of a message's tool results, with their bytes (to keep them in the store before the message). */
export function toolResultImages(message: ModelMessage): { record: ImageRecord; bytes: Buffer }[] {
  if (message.role !== 'tool') return [];
  return message.content.flatMap((part) =>
    part.type !== 'tool-result'
      ? []
      : outputParts(part).flatMap((inner) => {
          const record = imageRecordOfPart(inner);
          return record === undefined || inner.type !== 'image-data'
            ? []
            : [{ record, bytes: Buffer.from(inner.data, 'base64') }];
        }),
  );
}

function outputParts(part: ToolResultPart): OutputPart[] {
  return part.output.type === 'content' ? part.output.value : [];
}

/**
 * A message's content as it is stored: image parts (a tool result's too) as their records, the
 * rest as it is.
 */
export function storedContent(content: ModelMessage['content']): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part) => {
    if (part.type === 'tool-result' && part.output.type === 'content') {
      const value = part.output.value.map((inner) => {
        const record = imageRecordOfPart(inner);
        return record === undefined ? inner : ({ type: 'image', ...record } satisfies StoredImagePart);
      });
      return { ...part, output: { ...part.output, value } };
    }
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
    const output = storedToolOutput(part);
    if (output !== undefined) {
      loaded.push({
        ...(part as object),
        output: { type: 'content', value: await loadedOutput(output, images) },
      });
      continue;
    }
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

/** A stored tool result's content parts, when its output is in parts. */
function storedToolOutput(part: unknown): unknown[] | undefined {
  if (typeof part !== 'object' || part === null || (part as { type?: unknown }).type !== 'tool-result')
    return undefined;
  const output = (part as { output?: { type?: unknown; value?: unknown } }).output;
  return output?.type === 'content' && Array.isArray(output.value) ? output.value : undefined;
}

async function loadedOutput(parts: unknown[], images: ImageLog): Promise<unknown[]> {
  const loaded: unknown[] = [];
  for (const part of parts) {
    const record = storedImageRecord(part);
    const stored = record === undefined ? undefined : await images.get(record.hash);
    if (record === undefined) loaded.push(part);
    else if (stored === undefined)
      loaded.push({ type: 'text', text: imageMarker(record, 'no longer stored') });
    else loaded.push(imageToolOutput('', record, stored.bytes).value[1]);
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
 * The messages with every image (a tool result's too) replaced by its marker (compaction drops
 * images first), and the images dropped; messages without images are the same objects.
 */
export function withoutImages(messages: readonly ModelMessage[]): {
  messages: ModelMessage[];
  dropped: ImageRecord[];
} {
  const dropped: ImageRecord[] = [];
  const marker = (part: unknown) => {
    const record = imageRecordOfPart(part);
    if (record !== undefined) dropped.push(record);
    return {
      type: 'text' as const,
      text:
        record === undefined
          ? '[image dropped to save context]'
          : imageMarker(record, 'dropped to save context'),
    };
  };
  const result = messages.map((message): ModelMessage => {
    if (message.role === 'tool') {
      if (!message.content.some((part) => part.type === 'tool-result' && outputParts(part).some(isImageData)))
        return message;
      const content = message.content.map((part) =>
        part.type !== 'tool-result' || part.output.type !== 'content'
          ? part
          : {
              ...part,
              output: {
                ...part.output,
                value: part.output.value.map((inner) => (isImageData(inner) ? marker(inner) : inner)),
              },
            },
      );
      return { ...message, content };
    }
    if (message.role !== 'user' || !Array.isArray(message.content)) return message;
    if (!message.content.some((part) => part.type === 'image')) return message;
    const content = message.content.map((part) => (part.type === 'image' ? marker(part) : part));
    return { ...message, content };
  });
  return { messages: result, dropped };
}

function isImageData(part: OutputPart): boolean {
  return part.type === 'image-data' || part.type === 'media';
}
