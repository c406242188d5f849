import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import type { CommandLog, CommandStart } from '../command-log.js';
import type { SyncPort } from '../ports.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { commands, type RunningCommand } from './schema.js';

export type { CommandStart };

/**
 * The commands running now, one row each from start to end. A row still here when its owner
 * process is gone belongs to a command a `kill -9` left behind (possibly still running).
 */
export class CommandStore implements SyncPort<CommandLog> {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;

  constructor(db: TaskweaveDb, options: { now?: () => number } = {}) {
    this.orm = db.drizzle;
    this.now = options.now ?? Date.now;
  }

  /** Records a command that started. */
  started(input: CommandStart): void {
    this.orm
      .insert(commands)
      .values({ ...input, host: input.host ?? hostname(), startedAt: this.now() })
      .run();
  }

  /** The command ended (by itself, or killed): its row goes. */
  ended(id: string): void {
    this.orm.delete(commands).where(eq(commands.id, id)).run();
  }

  /** Every recorded command, oldest first. */
  list(): RunningCommand[] {
    return this.orm.select().from(commands).orderBy(commands.startedAt).all();
  }
}
