/**
 * A command file's text with its arguments put in: `$ARGUMENTS` is everything after the name,
 * `$1`, `$2`… the words of it (a "quoted phrase" is one word; a missing one is empty). A text
 * that uses none of them and was given arguments gets them appended after a blank line, so
 * that nothing typed is lost.
 */
export function expandCommandText(text: string, argumentText: string): string {
  const args = argumentText.trim();
  const words = splitWords(args);
  let used = false;
  const expanded = text.replace(/\$(ARGUMENTS\b|\d+)/g, (_whole, name: string) => {
    used = true;
    if (name === 'ARGUMENTS') return args;
    return words[Number(name) - 1] ?? '';
  });
  const trimmed = expanded.trim();
  if (!used && args !== '') return `${trimmed}\n\n${args}`;
  return trimmed;
}

function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}
