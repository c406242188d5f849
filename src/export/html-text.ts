const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text: `&`, `<`, `>` and both quotes escaped, so that nothing in it is markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Text for a quoted attribute value (the same escapes: quotes included). */
export function escapeAttribute(text: string): string {
  return escapeHtml(text);
}
