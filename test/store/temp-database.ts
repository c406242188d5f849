import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type Synchronous, type TaskweaveDb } from '../../src/store/sqlite/database.js';

const openDatabases: TaskweaveDb[] = [];
const folders: string[] = [];

/** A fresh temp folder, removed after the test. */
export async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-store-'));
  folders.push(folder);
  return folder;
}

/** A migrated database in a real temp file, closed and removed after the test. */
export async function openTempDatabase(options: { synchronous?: Synchronous } = {}): Promise<TaskweaveDb> {
  const folder = await tempFolder();
  return track(openDatabase({ path: path.join(folder, 'taskweave.db'), ...options }));
}

/** Closes the database after the test. */
export function track(db: TaskweaveDb): TaskweaveDb {
  openDatabases.push(db);
  return db;
}

afterEach(async () => {
  for (const db of openDatabases.splice(0)) db.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});
