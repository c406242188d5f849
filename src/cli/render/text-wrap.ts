/** `1 task`, `2 tasks`: a count with its noun. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * A line wrapped at word boundaries to `width` columns; continuation rows start with `indent`.
 * A word longer than a row is cut (there is no better place to break it).
 */
export function wrapWords(line: string, width: number, indent = ''): string[] {
  if ([...line].length <= width) return [line];
  const rows: string[] = [];
  const leading = /^\s*/.exec(line)?.[0] ?? '';
  let row = leading;
  const room = (prefix: string) => Math.max(1, width - [...prefix].length);
  for (const word of line.slice(leading.length).split(/ +/)) {
    const candidate = row.trim() === '' ? `${row}${word}` : `${row} ${word}`;
    if ([...candidate].length <= width) {
      row = candidate;
      continue;
    }
    if (row.trim() !== '') rows.push(row);
    let rest = word;
    while ([...rest].length > room(indent)) {
      rows.push(indent + [...rest].slice(0, room(indent)).join(''));
      rest = [...rest].slice(room(indent)).join('');
    }
    row = indent + rest;
  }
  if (row.trim() !== '') rows.push(row);
  return rows;
}

/**
 * A labelled text: its further lines indented under the first; on a terminal (`width`) each line
 * is also wrapped between words, its continuation rows indented the same way.
 */
export function wrapLabelled(options: {
  prefix: string;
  text: string;
  continuation: string;
  width?: number;
}): string[] {
  const { prefix, continuation, width } = options;
  const [first = '', ...rest] = options.text.trimEnd().split('\n');
  if (width === undefined) return [`${prefix}${first}`, ...rest.map((line) => `${continuation}${line}`)];
  // The prefix stands in as one unbreakable word of its width, so that its spaces stay as they are.
  const stand = '\u0000'.repeat(prefix.length);
  const [head = '', ...tail] = wrapWords(`${stand}${first}`, width, continuation);
  return [
    head.replace(stand, prefix),
    ...tail,
    ...rest.flatMap((line) => wrapWords(`${continuation}${line}`, width, continuation)),
  ];
}

/** A line cut to `width` characters with an ellipsis (for one-row output: logs, diffs). */
export function fitLine(line: string, width: number): string {
  const characters = [...line];
  return characters.length <= width ? line : `${characters.slice(0, Math.max(1, width - 1)).join('')}…`;
}
