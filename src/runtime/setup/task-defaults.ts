/** The longest title a task gets from its description when none is given. */
export const MAX_DEFAULT_TITLE_CHARS = 80;
