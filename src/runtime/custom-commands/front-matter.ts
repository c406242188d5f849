import { APPROVAL_MODES, type ApprovalMode } from '../../tools/approval.js';

/** What a command file's front matter may set. */
export interface CommandFrontMatter {
  /** What /help says about the command. */
  description?: string;
  /** The loop of the goal it starts: `react` or `roa`. */
  loop?: 'react' | 'roa';
  /** Whether the goal is planned: `auto`, `always`, `never`. */
  plan?: 'auto' | 'always' | 'never';
  /** The approval mode of its goal; never looser than the session's (see commandSettings). */
  approval?: ApprovalMode;
}

const CHOICES = {
  loop: ['react', 'roa'],
  plan: ['auto', 'always', 'never'],
  approval: APPROVAL_MODES,
} as const;

/**
 * Splits a command file into its front matter and its text. The front matter is optional: a
 * first line `---`, then `key: value` lines (a value may be quoted with " or '), then `---`. It
 * is a strict subset of YAML, enough for the four keys there are: anything else (an unknown
 * key, a nested value, a missing closing line) throws an Error saying which line and why.
 */
export function parseCommandFile(source: string): { frontMatter: CommandFrontMatter; body: string } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!/^---[ \t]*\n/.test(text)) return { frontMatter: {}, body: text };
  const lines = text.split('\n');
  const end = lines.findIndex((line, index) => index > 0 && /^---[ \t]*$/.test(line));
  if (end === -1) throw new Error('its front matter opens with --- on line 1 but has no closing --- line');
  const frontMatter: CommandFrontMatter = {};
  for (let index = 1; index < end; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z][A-Za-z0-9_-]*):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match) throw new Error(`line ${index + 1} of its front matter is not "key: value": ${line.trim()}`);
    const [, key = '', raw = ''] = match;
    const value = unquote(raw, index + 1);
    if (key === 'description') {
      if (value === '') throw new Error(`line ${index + 1}: the description is empty`);
      frontMatter.description = value;
      continue;
    }
    if (key !== 'loop' && key !== 'plan' && key !== 'approval')
      throw new Error(`line ${index + 1}: unknown key "${key}" (known: description, loop, plan, approval)`);
    const choices: readonly string[] = CHOICES[key];
    if (!choices.includes(value))
      throw new Error(`line ${index + 1}: ${key} must be one of ${choices.join(', ')}, not "${value}"`);
    Object.assign(frontMatter, { [key]: value });
  }
  return { frontMatter, body: lines.slice(end + 1).join('\n') };
}

function unquote(raw: string, line: number): string {
  const quote = raw[0];
  if (quote !== '"' && quote !== "'") {
    if (raw.startsWith('[') || raw.startsWith('{') || raw.startsWith('|') || raw.startsWith('>'))
      throw new Error(`line ${line}: only plain one-line values are understood here, not ${raw[0]}`);
    return raw;
  }
  if (raw.length < 2 || raw.at(-1) !== quote)
    throw new Error(`line ${line}: the quote ${quote} is not closed`);
  return raw.slice(1, -1);
}
