/*
 * What of a paragraph still being streamed can be drawn already. Words wrap greedily, so every
 * row but the last of a paragraph's beginning stays as it is when more words come, as long as
 * that beginning holds no markup still open (a `**` whose closing one has not come yet would
 * turn the words after it bold, and drop the markers, once it does).
 */

/** A line that starts a block other than a paragraph, or may turn out to (a table's first row). */
const NOT_A_PARAGRAPH = /^(?: {0,3}(?:[-*+]\s|\d+[.)]\s|#|>|```|~~~|<|\||[-=_*]{3})| {4}|\t)/;

/**
 * The beginning of `block` (the text of a block not yet complete) that can be drawn now: up to
 * its last word boundary outside any markup still open; '' when the block is not a plain
 * paragraph or nothing is safe yet.
 */
export function settledParagraphText(block: string): string {
  const text = block.replace(/^\n+/, '');
  const lines = text.split('\n');
  if (lines.some((line) => NOT_A_PARAGRAPH.test(line) || line.includes('|'))) return '';
  return text.slice(0, settledEnd(text));
}

/** Where the settled beginning ends: a blank outside code, emphasis, strikethrough and links. */
function settledEnd(text: string): number {
  let code = false;
  let strong = false;
  let emphasis = false;
  let underscore = false;
  let strike = false;
  let brackets = 0;
  let parentheses = 0;
  let end = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? '';
    const next = text[index + 1] ?? '';
    if (char === '\\' && !code) {
      index += 1;
      continue;
    }
    if (char === '`') code = !code;
    else if (code) continue;
    else if (char === '*' && next === '*') {
      strong = !strong;
      index += 1;
    } else if (char === '*') emphasis = !emphasis;
    else if (char === '~' && next === '~') {
      strike = !strike;
      index += 1;
    } else if (char === '_' && !(isWordChar(text[index - 1]) && isWordChar(next))) underscore = !underscore;
    else if (char === '[') brackets += 1;
    else if (char === ']') brackets = Math.max(0, brackets - 1);
    else if (char === '(') parentheses += 1;
    else if (char === ')') parentheses = Math.max(0, parentheses - 1);
    else if (
      /\s/.test(char) &&
      !strong &&
      !emphasis &&
      !underscore &&
      !strike &&
      brackets === 0 &&
      parentheses === 0
    )
      end = index;
  }
  return end;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}
