import { describe, expect, it } from 'vitest';
import { lazyStatements } from '../../src/store/sqlite/lazy-statements.js';

describe('statements prepared when first used', () => {
  it('builds each on its first read only, once, and keeps it', () => {
    const built: string[] = [];
    const statements = lazyStatements({
      first: () => {
        built.push('first');
        return { sql: 'select 1' };
      },
      second: () => {
        built.push('second');
        return { sql: 'select 2' };
      },
    });
    expect(built).toEqual([]);
    const first = statements.first;
    expect(first).toEqual({ sql: 'select 1' });
    expect(statements.first).toBe(first);
    expect(built).toEqual(['first']);
    expect(Object.keys(statements)).toEqual(['first', 'second']);
    expect(built).toEqual(['first']);
    expect(statements.second.sql).toBe('select 2');
    expect(built).toEqual(['first', 'second']);
  });
});
