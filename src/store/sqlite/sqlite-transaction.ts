import type Database from 'better-sqlite3';

/** SQLite ended the transaction on its own (an I/O error, a full disk): nothing of it was kept. */
export class TransactionLostError extends Error {
  override name = 'TransactionLostError';
}

/**
 * Runs async work inside one write transaction of a connection, one such transaction at a time
 * (the next waits for the last to end). The transaction is IMMEDIATE, so it holds the write lock
 * from the start and its commit cannot fail for another process's writes. Everything written on
 * the connection while the work runs commits with it, or not at all; a transaction a store method
 * opens meanwhile becomes a savepoint within it. The work should only touch the store: the lock
 * is held until it settles.
 */
export function sqliteTransactionRunner(sqlite: Database.Database) {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(async () => {
      sqlite.exec('BEGIN IMMEDIATE');
      try {
        const value = await work();
        if (!sqlite.inTransaction) throw new TransactionLostError('SQLite rolled the transaction back.');
        sqlite.exec('COMMIT');
        return value;
      } catch (error) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw error;
      }
    });
    tail = result.catch(() => undefined);
    return result;
  };
}
