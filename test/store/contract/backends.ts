import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Store } from '../../../src/store/ports.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

/** One empty database of a backend, on which a test opens one store or several (several "machines"). */
export interface ContractDatabase {
  /** Opens a store on the database, with the test's clock. */
  open(now?: () => number): Promise<Store>;
  /** Closes every store opened and removes the database. */
  dispose(): Promise<void>;
}

/** A backend of the contract suite. */
export interface ContractBackend {
  name: string;
  /** Whether two stores of one database run queries at the same time (separate connections to a server). */
  concurrent: boolean;
  createDatabase(): Promise<ContractDatabase>;
}

/** SQLite in a real temp file; each store opened is a connection of its own to the file. */
export function sqliteBackend(): ContractBackend {
  return {
    name: 'sqlite',
    concurrent: false,
    async createDatabase() {
      const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-contract-'));
      const file = path.join(folder, 'taskweave.db');
      const stores: Store[] = [];
      return {
        async open(now) {
          const store = openSqliteStore({ path: file, create: true, synchronous: 'NORMAL', now });
          stores.push(store);
          return store;
        },
        async dispose() {
          for (const store of stores.splice(0)) await store.close();
          await rm(folder, { recursive: true, force: true });
        },
      };
    },
  };
}

/** A schema name of its own for each test database. */
function schemaName(): string {
  return `tw_contract_${randomBytes(6).toString('hex')}`;
}

/**
 * PostgreSQL in this process (PGlite), one per test file: each test database is a schema of its
 * own. PGlite has one connection, so its stores take turns (no real concurrency).
 */
export function pgliteBackend(client: () => PGlite): ContractBackend {
  return {
    name: 'pglite',
    concurrent: false,
    async createDatabase() {
      const schema = schemaName();
      const stores: Store[] = [];
      return {
        async open(now) {
          const store = await openPostgresStore({ target: { pglite: client() }, schema, now });
          stores.push(store);
          return store;
        },
        async dispose() {
          for (const store of stores.splice(0)) await store.close();
          await client().exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; SET search_path TO public`);
        },
      };
    },
  };
}

/** A real PostgreSQL server (the URL of TASKWEAVE_TEST_POSTGRES): each test database is a schema; each store a pool of its own. */
export function serverBackend(url: string): ContractBackend {
  return {
    name: 'postgres server',
    concurrent: true,
    async createDatabase() {
      const schema = schemaName();
      const stores: Store[] = [];
      return {
        async open(now) {
          const store = await openPostgresStore({ target: { url }, schema, now });
          stores.push(store);
          return store;
        },
        async dispose() {
          for (const store of stores.splice(0)) await store.close();
          const { default: pg } = await import('pg');
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          } finally {
            await client.end();
          }
        },
      };
    },
  };
}
