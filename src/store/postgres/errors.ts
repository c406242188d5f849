/** PostgreSQL's SQLSTATE for a foreign key that points at no row. */
export const FOREIGN_KEY_VIOLATION = '23503';

/** The SQLSTATE of a PostgreSQL error, also when drizzle wraps it (as the cause of a DrizzleQueryError). */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ('code' in current && typeof current.code === 'string') return current.code;
  }
  return undefined;
}
