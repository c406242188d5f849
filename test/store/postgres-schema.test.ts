import { getTableColumns, getTableName, is, Table } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as pg from '../../src/store/postgres/schema.js';
import * as sqlite from '../../src/store/sqlite/schema.js';

/** Each table of a schema module: its columns' names, nullability and defaults. */
function shape(module: Record<string, unknown>) {
  const tables: Record<
    string,
    Record<string, { notNull: boolean; primary: boolean; hasDefault?: boolean; enum?: readonly string[] }>
  > = {};
  for (const value of Object.values(module)) {
    if (!is(value, Table)) continue;
    tables[getTableName(value)] = Object.fromEntries(
      Object.values(getTableColumns(value)).map((column) => [
        column.name,
        {
          notNull: column.notNull,
          primary: column.primary,
          // A primary key's default differs by dialect (SQLite's INTEGER PRIMARY KEY is the rowid).
          hasDefault: column.primary ? undefined : column.hasDefault,
          ...(column.enumValues === undefined ? {} : { enum: column.enumValues }),
        },
      ]),
    );
  }
  return tables;
}

describe('the PostgreSQL schema', () => {
  it('has the tables and columns of the SQLite schema, with the same nullability, defaults and values', () => {
    const sqliteShape = shape(sqlite);
    expect(Object.keys(sqliteShape).length).toBeGreaterThan(10);
    expect(shape(pg)).toEqual(sqliteShape);
  });
});
