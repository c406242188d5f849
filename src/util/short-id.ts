/** The fewest characters of an id (after its `task_` or `ses_` prefix) a command accepts. */
export const MIN_ID_PREFIX_CHARS = 4;
/** How many characters of an id (after its prefix) tables show. */
export const SHORT_ID_CHARS = 8;

/** The kinds of ids a user types: what they are called and the prefix taskweave gives them. */
export const ID_KINDS = {
  task: { noun: 'task', idPrefix: 'task', listCommand: 'taskweave tasks list --all' },
  session: { noun: 'session', idPrefix: 'ses', listCommand: 'taskweave sessions list' },
} as const;

/** A kind of id: `task` or `session`. */
export type IdKindName = keyof typeof ID_KINDS;

/** The id as tables show it: the start of its random part (`task_4k9v0q2mzh7c` → `4k9v0q2m`). */
export function shortId(id: string, kind: IdKindName): string {
  const { idPrefix } = ID_KINDS[kind];
  const random = id.startsWith(`${idPrefix}_`) ? id.slice(idPrefix.length + 1) : id;
  return random.slice(0, SHORT_ID_CHARS);
}
