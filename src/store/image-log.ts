import type { ImageRecord } from '../events/images.js';

/*
 * Images given to the model, stored once by the sha256 of their bytes: a message, an event or a
 * task names one by its record, never by its bytes.
 */

/** An image to keep: its record (the hash is the sha256 of `bytes`) and its bytes. */
export interface ImageInput {
  record: ImageRecord;
  bytes: Uint8Array;
}

/** A stored image: its record and its bytes. */
export interface StoredImage {
  record: ImageRecord;
  bytes: Uint8Array;
}

/** The images of a store. */
export interface ImageLog {
  /** Keeps an image (again: the same hash is kept once); returns its record as stored. */
  put(image: ImageInput): Promise<ImageRecord>;
  /** The image of a hash, or undefined when none is stored. */
  get(hash: string): Promise<StoredImage | undefined>;
  /** The records of these hashes that are stored, in the order asked (unknown ones left out). */
  records(hashes: readonly string[]): Promise<ImageRecord[]>;
}

/** An image's row: its record's fields, its size and its bytes. */
export function imageRow(image: ImageInput, now: number) {
  const { record, bytes } = image;
  return {
    hash: record.hash,
    mediaType: record.media_type,
    width: record.width,
    height: record.height,
    size: bytes.byteLength,
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    createdAt: now,
  };
}

/** A row's record. */
export function imageRecordOf(row: {
  hash: string;
  mediaType: string;
  width: number;
  height: number;
}): ImageRecord {
  return {
    hash: row.hash,
    media_type: row.mediaType as ImageRecord['media_type'],
    width: row.width,
    height: row.height,
  };
}

/** The records of `hashes` found in `rows`, in the order of `hashes`. */
export function inOrderAsked(hashes: readonly string[], rows: ImageRecord[]): ImageRecord[] {
  const byHash = new Map(rows.map((row) => [row.hash, row]));
  return hashes.flatMap((hash) => {
    const row = byHash.get(hash);
    return row === undefined ? [] : [row];
  });
}
