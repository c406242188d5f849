import { describe, it } from 'vitest';
import { serverBackend } from './backends.js';
import { storeContract } from './store-contract.js';

// The store contract on a real PostgreSQL server, when TASKWEAVE_TEST_POSTGRES gives one
// (.ci/run starts one and sets it): each test in a schema of its own, each store a pool of its own.
const url = process.env.TASKWEAVE_TEST_POSTGRES;

if (url === undefined || url === '') {
  describe('store contract: postgres server', () => {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set (set it to a postgres:// URL of a database the tests may write; .ci/run does)', () => {});
  });
} else {
  storeContract(serverBackend(url));
}
