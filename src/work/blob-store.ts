import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync, inflate } from 'node:zlib';
import type { BlobStoreKind } from '../store/vocabulary.js';
import { git } from './git.js';
import type { Repository } from './repository.js';

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/** Where change records keep file contents, each once, by its hash. */
export interface BlobStore {
  kind: BlobStoreKind;
  /** The content id `put` would give, without storing anything. */
  idOf(content: Buffer): string;
  /** Stores the content (once: a content already there is not written again); its id. */
  put(content: Buffer): Promise<string>;
  /** The content of an id; throws when it is not there. */
  get(id: string): Promise<Buffer>;
}

/** The id git gives a blob: the hash of `blob <size>\0` and the content. */
export function gitBlobId(content: Buffer, format: 'sha1' | 'sha256'): string {
  return createHash(format).update(`blob ${content.length}\0`).update(content).digest('hex');
}

/**
 * Contents in the repository's own object database, as loose objects exactly as git writes them
 * (zlib of `blob <size>\0content`, named by its hash): what `git hash-object -w` does, without a
 * process per file. Read back with `git cat-file`, so packed objects are found too.
 */
export class GitBlobStore implements BlobStore {
  readonly kind = 'git' as const;

  constructor(private readonly repository: Repository) {}

  idOf(content: Buffer): string {
    return gitBlobId(content, this.repository.format);
  }

  async put(content: Buffer): Promise<string> {
    const id = this.idOf(content);
    const folder = path.join(this.repository.objects, id.slice(0, 2));
    const file = path.join(folder, id.slice(2));
    if (existsSync(file)) return id;
    const whole = Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]);
    await writeOnce(folder, file, await compress(whole), 0o444);
    return id;
  }

  async get(id: string): Promise<Buffer> {
    return git(['cat-file', 'blob', id], { cwd: this.repository.top });
  }
}

/**
 * Contents in `.taskweave/blobs/` of the workspace (no repository): zlib-compressed files named by
 * the content's sha256.
 */
export class FolderBlobStore implements BlobStore {
  readonly kind = 'folder' as const;

  constructor(readonly folder: string) {}

  idOf(content: Buffer): string {
    return createHash('sha256').update(content).digest('hex');
  }

  /** Where an id's content lives. */
  fileOf(id: string): string {
    return path.join(this.folder, id.slice(0, 2), id.slice(2));
  }

  async put(content: Buffer): Promise<string> {
    const id = this.idOf(content);
    const file = this.fileOf(id);
    if (existsSync(file)) return id;
    await writeOnce(path.dirname(file), file, await compress(content), 0o644);
    return id;
  }

  async get(id: string): Promise<Buffer> {
    const content = await inflateAsync(await readFile(this.fileOf(id)));
    if (this.idOf(content) !== id) throw new Error(`The stored content ${id} is damaged (its hash differs).`);
    return content;
  }
}

/** Contents up to this size are compressed and written synchronously (cheaper than the thread pool). */
const SMALL_BYTES = 256 * 1024;

function compress(content: Buffer): Promise<Buffer> | Buffer {
  return content.length <= SMALL_BYTES
    ? deflateSync(content, { level: 1 })
    : deflateAsync(content, { level: 1 });
}

/** Writes a content-named file whole or not at all: a temporary file renamed into place. */
async function writeOnce(folder: string, file: string, content: Buffer, mode: number): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const temporary = `${file}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    if (content.length <= SMALL_BYTES) writeFileSync(temporary, content, { mode, flag: 'wx' });
    else await writeFile(temporary, content, { mode, flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
