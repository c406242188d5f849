import { eq, inArray } from 'drizzle-orm';
import type { ImageRecord } from '../../events/images.js';
import {
  type ImageInput,
  type ImageLog,
  imageRecordOf,
  imageRow,
  inOrderAsked,
  type StoredImage,
} from '../image-log.js';
import type { PgContext } from './context.js';
import { images } from './schema.js';

/** The images table in PostgreSQL, with the contracts of the SQLite ImageStore. */
export class PgImageStore implements ImageLog {
  constructor(
    private readonly ctx: PgContext,
    private readonly now: () => number = Date.now,
  ) {}

  async put(image: ImageInput): Promise<ImageRecord> {
    await this.ctx.db.insert(images).values(imageRow(image, this.now())).onConflictDoNothing();
    return image.record;
  }

  async get(hash: string): Promise<StoredImage | undefined> {
    const [row] = await this.ctx.db.select().from(images).where(eq(images.hash, hash));
    return row === undefined ? undefined : { record: imageRecordOf(row), bytes: row.bytes };
  }

  async records(hashes: readonly string[]): Promise<ImageRecord[]> {
    if (hashes.length === 0) return [];
    const rows = await this.ctx.db
      .select({ hash: images.hash, mediaType: images.mediaType, width: images.width, height: images.height })
      .from(images)
      .where(inArray(images.hash, [...hashes]));
    return inOrderAsked(hashes, rows.map(imageRecordOf));
  }
}
