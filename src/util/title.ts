/** The longest title a goal or a to-do item gets from its text. */
export const MAX_TITLE_CHARS = 80;

/** A title for a goal or a to-do item: its first line with words in it, cut at MAX_TITLE_CHARS. */
export function titleOf(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? text).slice(0, MAX_TITLE_CHARS);
}
