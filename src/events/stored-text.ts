/**
 * Text a user sends that taskweave stores (a goal, a task, an answer): PostgreSQL's `text` cannot
 * hold a NUL character and SQLite's can, so NUL is refused where the text enters, the same on
 * both stores, rather than failing deep in a query with the SQL in the message. Plain functions,
 * no zod: the runtime's guard runs on paths that load no schema library (`tasks add`).
 */

/** Whether the text holds a NUL character (U+0000). */
export function containsNul(text: string): boolean {
  return text.includes('\u0000');
}

/** The refusal a front end shows for a NUL character in `field`. */
export function nulRefusal(field: string): string {
  return `${field} contains a NUL character (\\0), which taskweave cannot store: remove it and send again`;
}
