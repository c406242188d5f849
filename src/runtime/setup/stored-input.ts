import { containsNul, nulRefusal } from '../../events/stored-text.js';
import { RuntimeInputError } from './errors.js';

/**
 * The runtime's own guard for text it is about to store (a goal, a task's title or description):
 * a NUL character is the user's mistake, refused before anything is written, on every store and
 * every front end (the server's schemas refuse it earlier; a piped CLI goal reaches only this).
 */
export function refuseNul(text: string, field: string): void {
  if (!containsNul(text)) return;
  const message = nulRefusal(field);
  throw new RuntimeInputError(`${message.charAt(0).toUpperCase()}${message.slice(1)}.`);
}
