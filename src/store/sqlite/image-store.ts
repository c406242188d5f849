import { inArray } from 'drizzle-orm';
import type { ImageRecord } from '../../events/images.js';
import {
  type ImageInput,
  type ImageLog,
  imageRecordOf,
  imageRow,
  inOrderAsked,
  type StoredImage,
} from '../image-log.js';
import type { SyncPort } from '../ports.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { images } from './schema.js';

/** The images table: each image once, by the sha256 of its bytes. */
export class ImageStore implements SyncPort<ImageLog> {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;

  constructor(db: TaskweaveDb, options: { now?: () => number } = {}) {
    this.orm = db.drizzle;
    this.now = options.now ?? Date.now;
  }

  put(image: ImageInput): ImageRecord {
    this.orm.insert(images).values(imageRow(image, this.now())).onConflictDoNothing().run();
    return image.record;
  }

  get(hash: string): StoredImage | undefined {
    const row = this.orm
      .select()
      .from(images)
      .where(inArray(images.hash, [hash]))
      .get();
    return row === undefined ? undefined : { record: imageRecordOf(row), bytes: row.bytes };
  }

  records(hashes: readonly string[]): ImageRecord[] {
    if (hashes.length === 0) return [];
    const rows = this.orm
      .select({ hash: images.hash, mediaType: images.mediaType, width: images.width, height: images.height })
      .from(images)
      .where(inArray(images.hash, [...hashes]))
      .all();
    return inOrderAsked(hashes, rows.map(imageRecordOf));
  }
}
