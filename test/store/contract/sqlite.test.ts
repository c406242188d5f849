import { sqliteBackend } from './backends.js';
import { storeContract } from './store-contract.js';

// The store contract on SQLite, in a real temp file.
storeContract(sqliteBackend());
