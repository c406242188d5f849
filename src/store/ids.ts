import { randomBytes } from 'node:crypto';

/** Lower-case letters and digits without the look-alikes i, l, o, u: 32 symbols, 5 bits each. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ID_LENGTH = 12;

/**
 * A short random id with a readable prefix (`task_4k9v0q2mzh7c`): 60 random bits, made in code
 * so that any SQL backend can store it as text. Easy to type and to double-click in a terminal.
 */
export function newId(prefix: string): string {
  const bytes = randomBytes(ID_LENGTH);
  let id = `${prefix}_`;
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}
