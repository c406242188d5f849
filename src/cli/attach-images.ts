import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Runtime } from '../runtime/index.js';
import { formatBytes, ImageIntakeError } from '../util/image-intake.js';
import { UsageError } from './usage-error.js';

/** An image file attached to a message, as its line shows it. */
export interface AttachedImage {
  hash: string;
  /** The file's name (not its folder). */
  name: string;
  /** Bytes as stored (after any scaling). */
  size: number;
  width: number;
  height: number;
  scaledFrom?: { width: number; height: number; bytes: number };
}

/**
 * Reads image files and stores them for the model (the runtime's intake: type from the bytes,
 * size limits, scaling); a file that cannot be read or is refused is a UsageError naming it.
 */
export async function attachImageFiles(
  runtime: Runtime,
  files: readonly string[],
  cwd: string,
): Promise<AttachedImage[]> {
  const attached: AttachedImage[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(path.resolve(cwd, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `Cannot attach ${file}: ${code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}.`,
      );
    }
    try {
      const taken = await runtime.takeImage(bytes);
      attached.push({
        hash: taken.record.hash,
        name: path.basename(file),
        size: taken.size,
        width: taken.record.width,
        height: taken.record.height,
        ...(taken.scaledFrom ? { scaledFrom: taken.scaledFrom } : {}),
      });
    } catch (error) {
      if (error instanceof ImageIntakeError) throw new UsageError(`Cannot attach ${file}: ${error.message}`);
      throw error;
    }
  }
  return attached;
}

/** The line an attached image shows: its name, size and dimensions (and what it was scaled from), never its bytes. */
export function attachedImageLine(image: AttachedImage): string {
  const scaled = image.scaledFrom
    ? ` (scaled down from ${image.scaledFrom.width}×${image.scaledFrom.height}, ${formatBytes(image.scaledFrom.bytes)})`
    : '';
  return `▸ image ${image.name} · ${image.width}×${image.height} · ${formatBytes(image.size)}${scaled}`;
}
