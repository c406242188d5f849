import { DIAGNOSTICS_SECTION } from '../../events/diagnostic-text.js';
/** One line of an edit's diff: a hunk header (`@@ line 4 @@`), removed, added or unchanged. */
export interface DiffLine {
  sign: '@' | '-' | '+' | ' ';
  text: string;
}

const HUNK_HEADER = /^@@ .* @@$/;

/**
 * The diff of an edit_file call, read back from the result the tool gives the model: a summary
 * line, a blank line, then per edit an `@@ line N @@` header and whole lines prefixed with
 * `- `, `+ ` or two spaces (the tool's own cut shows as `… N more lines`). Empty for any other
 * text.
 */
export function editDiffLines(result: string): DiffLine[] {
  const body = result.indexOf('\n\n');
  if (body === -1) return [];
  const lines: DiffLine[] = [];
  for (const line of result.slice(body + 2).split('\n')) {
    if (line === '') continue;
    // What the language server added after the diff is shown apart (tool-details.ts).
    if (DIAGNOSTICS_SECTION.test(line)) break;
    if (HUNK_HEADER.test(line)) lines.push({ sign: '@', text: line });
    else if (line.startsWith('- ') || line.startsWith('+ ') || line.startsWith('  '))
      lines.push({ sign: line.charAt(0) as DiffLine['sign'], text: line.slice(2) });
    else if (line.startsWith('… ')) lines.push({ sign: ' ', text: line });
    else return [];
  }
  return lines;
}
