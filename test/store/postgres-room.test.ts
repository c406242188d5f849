import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildImportGraph } from '../architecture/import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** The SQLite implementation's room: the PostgreSQL store may use its types only. */
const SQLITE_ROOM = 'store/sqlite/';

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
        if (target.startsWith(SQLITE_ROOM) || edge.specifier === 'better-sqlite3')
          offending.push(`${file.slice(SRC.length + 1)} → ${edge.specifier}`);
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
