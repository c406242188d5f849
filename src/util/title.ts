/** The longest title a goal or a to-do item gets from its text. */
export const MAX_TITLE_CHARS = 80;

/**
 * A title for a goal or a to-do item: its first line with words in it; a longer line is cut
 * between words (within MAX_TITLE_CHARS, `…` included) and ends in `…`.
 */
export function titleOf(text: string): string {
  const line = (text.split('\n').find((candidate) => candidate.trim() !== '') ?? text).trim();
  if (line.length <= MAX_TITLE_CHARS) return line;
  const room = line.slice(0, MAX_TITLE_CHARS - 1);
  const lastSpace = room.lastIndexOf(' ');
  // A word longer than half the title (a path, a URL) is cut where the room ends.
  const cut = lastSpace > MAX_TITLE_CHARS / 2 ? room.slice(0, lastSpace) : room;
  return `${cut.trimEnd()}…`;
}
