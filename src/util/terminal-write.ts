import { stripControlSequences } from './terminal-text.js';

// taskweave's own colours and weights, the only sequences its lines keep: the SGR codes of
// styleFor (bold, dim, red, green, yellow, cyan and their resets); not concealed text, not
// another foreground or background.
const STYLE_SEQUENCE = /\u001b\[(?:1|2|22|31|32|33|36|39|0)?m/g;

/**
 * A line taskweave prints, made safe for a terminal: every escape sequence and control character
 * is removed (stripControlSequences), except the colour and weight sequences taskweave's own
 * styles add. Text from outside (a config's model name, a URL, an error's message) interpolated
 * into the line can then not write the clipboard, erase lines or move the cursor.
 */
export function terminalSafe(text: string): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(STYLE_SEQUENCE)) {
    result += stripControlSequences(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return result + stripControlSequences(text.slice(last));
}

/** Writes `text` to a terminal stream (stdout or stderr) through terminalSafe. */
export function writeTerminal(stream: NodeJS.WritableStream, text: string): void {
  stream.write(terminalSafe(text));
}
