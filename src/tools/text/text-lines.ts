/**
 * Splits text into lines without their line breaks (`\n` or `\r\n`). A final line break ends the
 * last line rather than starting an empty one, so `"a\nb\n"` has two lines and `""` has none.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** How many lines a text has, counted as `splitLines` does. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let breaks = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) breaks++;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** The 1-based number of the line that holds the character at `offset`. */
export function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line++;
  }
  return line;
}

/** `1 line`, `12 lines`. */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * Numbers lines as `cat -n` does: the number right-aligned to the widest number shown, a tab,
 * then the line.
 */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  const width = String(firstLineNumber + lines.length - 1).length;
  return lines.map((line, index) => `${String(firstLineNumber + index).padStart(width)}\t${line}`).join('\n');
}

/** The text of a file, or undefined when it is not valid UTF-8 (decoding would replace bytes). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
