import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildImportGraph } from '../architecture/import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** The store's top-level files that are the SQLite implementation: the PostgreSQL store may use their types only. */
const SQLITE_FILES = [
  'store/database.ts',
  'store/schema.ts',
  'store/sqlite-store.ts',
  'store/sqlite-transaction.ts',
  'store/sqlite-signals.ts',
  'store/task-store.ts',
  'store/task-queries.ts',
  'store/session-store.ts',
  'store/change-store.ts',
  'store/command-store.ts',
  'store/usage-store.ts',
  'store/origin-store.ts',
  'store/id-lookup.ts',
  'store/quick-read.ts',
  'store/store-file-guard.ts',
];

describe('src/store/postgres', () => {
  it('loads nothing of the SQLite store: its imports of the SQLite files are type imports', () => {
    const graph = buildImportGraph(SRC);
    const offending: string[] = [];
    let checked = 0;
    for (const [file, facts] of graph.files) {
      if (!file.includes('/store/postgres/')) continue;
      checked += 1;
      for (const edge of facts.imports) {
        if (edge.typeOnly || edge.resolved === undefined) continue;
        const target = edge.resolved.slice(SRC.length + 1);
        if (SQLITE_FILES.includes(target) || edge.specifier === 'better-sqlite3')
          offending.push(`${file.slice(SRC.length + 1)} → ${edge.specifier}`);
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
