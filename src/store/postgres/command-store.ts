import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import type { CommandLog, CommandStart } from '../command-log.js';
import type { RunningCommand } from '../rows.js';
import type { PgContext } from './context.js';
import { commands } from './schema.js';

/** The commands running now, in PostgreSQL, with the contracts of the SQLite CommandStore. */
export class PgCommandStore implements CommandLog {
  constructor(
    private readonly ctx: PgContext,
    private readonly now: () => number = Date.now,
  ) {}

  async started(input: CommandStart): Promise<void> {
    await this.ctx.db
      .insert(commands)
      .values({ ...input, host: input.host ?? hostname(), startedAt: this.now() });
  }

  async ended(id: string): Promise<void> {
    await this.ctx.db.delete(commands).where(eq(commands.id, id));
  }

  async list(): Promise<RunningCommand[]> {
    return this.ctx.db.select().from(commands).orderBy(commands.startedAt, commands.id);
  }
}
