/** The most characters of tool output the model ever sees from one call. */
export const MAX_TOOL_OUTPUT_CHARS = 30_000;

/** Room kept for the elision note when a text is shortened to a budget. */
const ELISION_NOTE_RESERVE = 80;

/**
 * Keeps the head and the tail of a long text and replaces the middle with a note saying how
 * much was left out. Errors usually sit at the end of output and context at the start.
 */
export function truncateMiddle(text: string, maxChars: number = MAX_TOOL_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const { headChars, tailChars } = headAndTailBudget(maxChars);
  const head = text.slice(0, headChars);
  const tail = text.slice(text.length - tailChars);
  const elidedChars = text.length - head.length - tail.length;
  const elidedLines = text.slice(head.length, text.length - tail.length).split('\n').length - 1;
  return `${head}\n${elisionNote(elidedChars, elidedLines)}\n${tail}`;
}

/** How many characters of head and of tail `truncateMiddle` keeps for a budget. */
export function headAndTailBudget(maxChars: number): { headChars: number; tailChars: number } {
  const keep = Math.max(0, maxChars - ELISION_NOTE_RESERVE);
  return { headChars: Math.ceil(keep / 2), tailChars: Math.floor(keep / 2) };
}

/** The note that stands in for an elided middle; one format everywhere output is shortened. */
export function elisionNote(elidedChars: number, elidedLines: number): string {
  return `… [${elidedChars} characters, ${elidedLines} lines elided] …`;
}
