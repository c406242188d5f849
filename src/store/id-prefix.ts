import { ID_KINDS, type IdKindName, MIN_ID_PREFIX_CHARS } from '../util/short-id.js';

/*
 * What an id the user typed means, apart from the query that looks it up (each dialect has its
 * own: GLOB in SQLite, a prefix comparison in PostgreSQL).
 */

/** How many matching ids an "ambiguous" error names. */
export const AMBIGUOUS_IDS_SHOWN = 5;

/** Characters of the ids taskweave makes (and nothing GLOB or LIKE would read as a wildcard but `_`). */
const ID_CHARACTERS = /^[a-z0-9_-]+$/;

/** An id the user typed that names no row, or more than one: the message says which and why. */
export class IdLookupError extends Error {
  override name = 'IdLookupError';

  /** `unknown`: no row has it; `invalid`: it cannot be an id; `ambiguous`: several rows match. */
  constructor(
    message: string,
    readonly reason: 'unknown' | 'invalid' | 'ambiguous',
  ) {
    super(message);
  }
}

/**
 * The id as typed (trimmed, lower case) and the prefixes a matching id starts with (with and
 * without the `task_`/`ses_` part); an IdLookupError when it cannot be an id or is too short.
 */
export function idPrefixes(kindName: IdKindName, input: string): { typed: string; prefixes: string[] } {
  const kind = ID_KINDS[kindName];
  const typed = input.trim().toLowerCase();
  const withoutPrefix = typed.startsWith(`${kind.idPrefix}_`) ? typed.slice(kind.idPrefix.length + 1) : typed;
  if (!ID_CHARACTERS.test(typed)) {
    throw new IdLookupError(
      `"${input}" is not a ${kind.noun} id: ids are made of letters, digits and "_".`,
      'invalid',
    );
  }
  if (withoutPrefix.length < MIN_ID_PREFIX_CHARS) {
    throw new IdLookupError(
      `The ${kind.noun} id "${input}" is too short: give at least ${MIN_ID_PREFIX_CHARS} characters of it.`,
      'invalid',
    );
  }
  return { typed, prefixes: [...new Set([typed, `${kind.idPrefix}_${withoutPrefix}`])] };
}

/**
 * The one id meant among the ids that start with a prefix (sorted, at most
 * AMBIGUOUS_IDS_SHOWN + 1 of them): the exact one, or the only one; an IdLookupError otherwise.
 */
export function pickIdMatch(kindName: IdKindName, input: string, typed: string, matches: string[]): string {
  const kind = ID_KINDS[kindName];
  const exact = matches.find((match) => match === typed);
  if (exact !== undefined) return exact;
  const [only, ...others] = matches;
  if (only === undefined) {
    throw new IdLookupError(
      `There is no ${kind.noun} whose id starts with "${input}" (see ${kind.listCommand}).`,
      'unknown',
    );
  }
  if (others.length > 0) {
    const shown = matches.slice(0, AMBIGUOUS_IDS_SHOWN).join(', ');
    const more = matches.length > AMBIGUOUS_IDS_SHOWN ? ', …' : '';
    throw new IdLookupError(
      `The ${kind.noun} id "${input}" is ambiguous: it matches ${shown}${more}. Give more characters.`,
      'ambiguous',
    );
  }
  return only;
}
