/*
 * The SQLite room's face for the one reader outside the store's ports: the quick listing of
 * `tasks list` and `sessions list`, which reads the database file without the ORM (a bench
 * showed it halves what those commands wait; test/e2e/cli-quick-listing.test.ts compares it with
 * the ports' path). Everything else reaches SQLite through `openStore` (../open-store.ts).
 */
export { openQuickRead, type QuickRead } from './quick-read.js';
