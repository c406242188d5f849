import { AsyncLocalStorage } from 'node:async_hooks';
import type { PgDb } from './connection.js';

/**
 * Where a port's query goes: the transaction the caller's async context runs in (a `transaction`
 * of the store, or a method's own), else the connection. A transaction holds one client of the
 * pool; every port method called while its work runs (in its async context) uses that client.
 */
export class PgContext {
  private readonly current = new AsyncLocalStorage<PgDb>();

  constructor(private readonly root: PgDb) {}

  /** The handle to query with now. */
  get db(): PgDb {
    return this.current.getStore() ?? this.root;
  }

  /** Whether the caller runs inside a transaction. */
  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Runs `work` in a transaction, or in a savepoint of the one the caller is in: what it writes
   * commits together, or not at all when it throws.
   */
  transaction<T>(work: (db: PgDb) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => this.current.run(tx, () => work(tx)));
  }
}
