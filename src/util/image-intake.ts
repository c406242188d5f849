import { createHash } from 'node:crypto';

/*
 * The one door for an image given to the model, whatever brought it (the web UI's upload, the
 * terminal's --image or @path, read_file): its type decided from its bytes, refused past a size,
 * scaled down with sharp to what every provider accepts.
 */

/** The largest input taken in; a bigger one is refused, naming its size and this limit. */
export const MAX_IMAGE_INPUT_BYTES = 20 * 1024 * 1024;
/** The longest edge of an image as the model gets it (larger ones are scaled down). */
export const MAX_IMAGE_EDGE_PX = 2000;
/** The most bytes an image the model gets may have (larger ones are scaled down or re-encoded). */
export const MAX_IMAGE_STORED_BYTES = 5 * 1024 * 1024;

/** The accepted types: sharp's format name → media type. */
const ACCEPTED = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
type AcceptedFormat = keyof typeof ACCEPTED;

/** An image as it is kept: its bytes and what names them. */
export interface TakenImage {
  /** The sha256 of `bytes`, in hex. */
  hash: string;
  media_type: (typeof ACCEPTED)[AcceptedFormat];
  width: number;
  height: number;
  bytes: Buffer;
  /** The input's own size, when it was scaled down to fit. */
  scaledFrom?: { width: number; height: number; bytes: number };
}

/** Why an input is not taken: `too_large` (past MAX_IMAGE_INPUT_BYTES), `unsupported_type`, `unreadable`. */
export class ImageIntakeError extends Error {
  override name = 'ImageIntakeError';
  constructor(
    readonly code: 'too_large' | 'unsupported_type' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

/** Sizes as a person reads them: `812 B`, `14.2 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Takes in an image: refuses input past MAX_IMAGE_INPUT_BYTES and types other than PNG, JPEG,
 * GIF and WebP (naming what it is), and scales one past MAX_IMAGE_EDGE_PX or
 * MAX_IMAGE_STORED_BYTES down, in its own format where that fits (a PNG or GIF that still does
 * not fit becomes a JPEG).
 */
export async function takeImage(input: Uint8Array): Promise<TakenImage> {
  if (input.byteLength === 0) throw new ImageIntakeError('unreadable', 'The image is empty (0 bytes).');
  if (input.byteLength > MAX_IMAGE_INPUT_BYTES)
    throw new ImageIntakeError(
      'too_large',
      `The image is ${formatBytes(input.byteLength)}; the limit is ${formatBytes(MAX_IMAGE_INPUT_BYTES)}.`,
    );
  const { default: sharp } = await import('sharp');
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const format = await formatOf(bytes, sharp);
  const metadata = await sharp(bytes, { animated: true }).metadata();
  const width = metadata.width;
  const height = metadata.pageHeight ?? metadata.height;
  const fits = Math.max(width, height) <= MAX_IMAGE_EDGE_PX && bytes.byteLength <= MAX_IMAGE_STORED_BYTES;
  if (fits) return { hash: sha256(bytes), media_type: ACCEPTED[format], width, height, bytes };
  const scaled = await scaleDown(bytes, format, sharp);
  return {
    ...scaled,
    hash: sha256(scaled.bytes),
    scaledFrom: { width, height, bytes: bytes.byteLength },
  };
}

type Sharp = typeof import('sharp')['default'];

async function formatOf(bytes: Buffer, sharp: Sharp): Promise<AcceptedFormat> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes).metadata()).format;
  } catch {
    throw new ImageIntakeError('unsupported_type', `This is not a supported image: ${describeBytes(bytes)}.`);
  }
  if (format !== undefined && format in ACCEPTED) return format as AcceptedFormat;
  throw new ImageIntakeError(
    'unsupported_type',
    `${(format ?? 'unknown').toUpperCase()} images are not supported: use PNG, JPEG, GIF or WebP.`,
  );
}

/** What bytes that are no image seem to be, for the refusal. */
function describeBytes(bytes: Buffer): string {
  const head = bytes.subarray(0, 8).toString('latin1');
  if (head.startsWith('%PDF')) return 'it is a PDF document (use PNG, JPEG, GIF or WebP)';
  if (head.startsWith('PK\u0003\u0004')) return 'it is a ZIP archive (use PNG, JPEG, GIF or WebP)';
  if (head.startsWith('BM')) return 'it is a BMP image (use PNG, JPEG, GIF or WebP)';
  const sample = bytes.subarray(0, 512);
  const text = sample.every((byte) => byte === 9 || byte === 10 || byte === 13 || byte >= 32);
  return text
    ? 'it is text (use PNG, JPEG, GIF or WebP)'
    : 'its bytes are of no known image type (use PNG, JPEG, GIF or WebP)';
}

/** Scales down to MAX_IMAGE_EDGE_PX, then smaller (and as JPEG for PNG/GIF) until within the byte limit. */
async function scaleDown(
  bytes: Buffer,
  format: AcceptedFormat,
  sharp: Sharp,
): Promise<Omit<TakenImage, 'hash' | 'scaledFrom'>> {
  let edge = MAX_IMAGE_EDGE_PX;
  let outputFormat = format;
  for (let attempt = 0; attempt < 6; attempt++) {
    const image = sharp(bytes, { animated: outputFormat === 'gif' || outputFormat === 'webp' }).resize({
      width: edge,
      height: edge,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const { data, info } = await image.toFormat(outputFormat).toBuffer({ resolveWithObject: true });
    if (data.byteLength <= MAX_IMAGE_STORED_BYTES) {
      const height = info.pageHeight ?? info.height;
      return { media_type: ACCEPTED[outputFormat], width: info.width, height, bytes: data };
    }
    // A lossless format that does not fit even scaled down once goes lossy; then the edge shrinks.
    if (outputFormat === 'png' || outputFormat === 'gif') outputFormat = 'jpeg';
    else edge = Math.round(edge * 0.75);
  }
  throw new ImageIntakeError('too_large', 'The image could not be scaled down to fit 5 MB.');
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
