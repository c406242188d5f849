/** The most characters of tool output the model ever sees from one call. */
export const MAX_TOOL_OUTPUT_CHARS = 30_000;

/**
 * Keeps the head and the tail of a long text and replaces the middle with a note saying how
 * much was left out. Errors usually sit at the end of output and context at the start.
 */
export function truncateMiddle(text: string, maxChars: number = MAX_TOOL_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(0, maxChars - 80);
  const head = text.slice(0, Math.ceil(keep / 2));
  const tail = text.slice(text.length - Math.floor(keep / 2));
  const elidedChars = text.length - head.length - tail.length;
  const elidedLines = text.slice(head.length, text.length - tail.length).split('\n').length - 1;
  return `${head}\n… [${elidedChars} characters, ${elidedLines} lines elided] …\n${tail}`;
}
