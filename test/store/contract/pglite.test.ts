import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { pgliteBackend } from './backends.js';
import { storeContract } from './store-contract.js';

// The store contract on PostgreSQL in this process (PGlite): `npm test` needs no server.
let client: PGlite | undefined;
beforeAll(async () => {
  client = await PGlite.create();
}, 60_000);
afterAll(async () => {
  await client?.close();
});

storeContract(
  pgliteBackend(() => {
    if (client === undefined) throw new Error('PGlite did not start');
    return client;
  }),
);
