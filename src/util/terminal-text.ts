/**
 * Text that came from outside taskweave (the model's replies and reasoning, tool output, file
 * names, task titles) made safe to print on a terminal: escape sequences and control characters
 * in it could write the clipboard (OSC 52), erase or overwrite lines, hide text, retitle the
 * window or move the cursor over what taskweave printed. taskweave's own colours are added after.
 */

// ESC followed by: a CSI (`[` parameters, intermediates, a final byte); an OSC, DCS, SOS, PM or
// APC string up to BEL or ST (or to the end, when never terminated); or any other single
// character (two-byte escapes such as `ESC c`, a full reset). The 8-bit forms (U+009B CSI,
// U+009D OSC…) are matched the same way.
const ESCAPE_SEQUENCE = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?',
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[\\s\\S]*?(?:\\u0007|\\u001b\\\\|\\u009c|$)',
    '\\u001b[\\s\\S]?',
  ].join('|'),
  'g',
);

// C0 controls except tab and newline (a lone carriage return is handled first), DEL, and the C1
// controls some terminals act on.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * The text without escape sequences and control characters other than newline and tab. A
 * carriage return that ends a line (`\r\n`) is dropped; a lone one (a progress bar redrawing its
 * line) becomes a newline, so that nothing printed can be written over.
 */
export function stripControlSequences(text: string): string {
  // Fast path: most text has nothing to strip.
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r/g, '\n')
    .replace(CONTROL_CHARACTER, '');
}

/**
 * A copy of a value with stripControlSequences applied to every string in it (through arrays and
 * plain objects), for data about to be rendered for the terminal; other values are kept as they are.
 */
export function sanitizeForTerminal<T>(value: T): T {
  if (typeof value === 'string') return stripControlSequences(value) as T;
  if (Array.isArray(value)) return value.map((item) => sanitizeForTerminal(item)) as T;
  if (value !== null && typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = sanitizeForTerminal(item);
    return copy as T;
  }
  return value;
}
