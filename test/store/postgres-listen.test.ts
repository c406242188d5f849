import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectServer, queryRows } from '../../src/store/postgres/connection.js';

const server = process.env.TASKWEAVE_TEST_POSTGRES;

/** Resolves once `check` holds, polling every 20 ms, or rejects after `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LISTEN on a real PostgreSQL server', () => {
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set', () => {});
    return;
  }
  it('listens again after its connection is lost: notifications sent after that still arrive', async () => {
    const channel = `tw_listen_${randomBytes(4).toString('hex')}`;
    const listening = await connectServer({ url: server });
    const other = await connectServer({ url: server });
    const heard: string[] = [];
    try {
      await listening.listen(channel, (payload) => heard.push(payload));
      await queryRows(other.db, sql.raw(`NOTIFY "${channel}", 'before'`));
      await eventually(() => heard.includes('before'), 2000);
      // The server ends the listening backend (as a restart or an administrator would).
      const ended = await queryRows<{ ended: boolean }>(
        other.db,
        sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query = ${`LISTEN "${channel}"`}`,
      );
      expect(ended.map((row) => row.ended)).toEqual([true]);
      // Sent until heard: the first ones may come before the new LISTEN.
      await eventually(() => {
        void queryRows(other.db, sql.raw(`NOTIFY "${channel}", 'after'`));
        return heard.includes('after');
      }, 5000);
    } finally {
      await listening.close();
      await other.close();
    }
  });
});
