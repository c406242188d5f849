import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildImportGraph } from '../architecture/import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** The imports of the files of one store room that reach the other room or its driver, type imports included. */
function crossings(
  room: string,
  other: string,
  drivers: readonly string[],
): { checked: number; offending: string[] } {
  const graph = buildImportGraph(SRC);
  const offending: string[] = [];
  let checked = 0;
  for (const [file, facts] of graph.files) {
    if (!file.includes(`/store/${room}/`)) continue;
    checked += 1;
    for (const edge of facts.imports) {
      const target = edge.resolved?.slice(SRC.length + 1) ?? '';
      if (target.startsWith(`store/${other}/`) || drivers.some((driver) => edge.specifier.startsWith(driver)))
        offending.push(`${file.slice(SRC.length + 1)} → ${edge.specifier}`);
    }
  }
  return { checked, offending };
}

describe('the store rooms', () => {
  it('src/store/postgres loads nothing of the SQLite store, not even its types', () => {
    const { checked, offending } = crossings('postgres', 'sqlite', [
      'better-sqlite3',
      'drizzle-orm/better-sqlite3',
    ]);
    expect(checked).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });

  it('src/store/sqlite loads nothing of the PostgreSQL store or its drivers', () => {
    const { checked, offending } = crossings('sqlite', 'postgres', [
      'pg',
      '@electric-sql/pglite',
      'drizzle-orm/pg-core',
    ]);
    expect(checked).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
