import { fstatSync } from 'node:fs';

/** After this long without the end of piped input, a note says what taskweave waits for. */
export const PIPED_INPUT_NOTE_MS = 3_000;
/** Piped text longer than this is cut in the middle (its head and tail are what explain a log). */
export const MAX_PIPED_INPUT_CHARS = 100_000;

/**
 * The text piped into taskweave (`cat build.log | taskweave run "explain this"`), or undefined
 * when stdin is a terminal or nothing was piped. Only a pipe or a redirected file is read: an
 * inherited stdin that is neither (a terminal, /dev/null, a closed descriptor) is left alone,
 * so that a script that runs taskweave without input never waits for it.
 */
export async function readPipedInput(stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
  if (stdin.isTTY) return undefined;
  let piped: boolean;
  try {
    const info = fstatSync(0);
    piped = info.isFIFO() || info.isFile() || info.isSocket();
  } catch {
    return undefined;
  }
  if (!piped) return undefined;
  const chunks: Buffer[] = [];
  // A parent that leaves stdin open without writing would make taskweave wait without a word.
  const note = setTimeout(() => {
    process.stderr.write(
      'taskweave is reading the input piped into it and waits for its end (run it with </dev/null when nothing is piped).\n',
    );
  }, PIPED_INPUT_NOTE_MS);
  note.unref();
  try {
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  } finally {
    clearTimeout(note);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.trim() === '' ? undefined : text;
}

/** The goal with the piped text after it, marked as such for the model (cut when very long). */
export function goalWithPipedInput(goal: string, piped: string): string {
  let text = piped.replace(/\s+$/, '');
  if (text.length > MAX_PIPED_INPUT_CHARS) {
    const half = Math.floor(MAX_PIPED_INPUT_CHARS / 2);
    text = `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters cut …]\n${text.slice(-half)}`;
  }
  return `${goal}\n\nThe user piped this text into taskweave as context:\n<piped-input>\n${text}\n</piped-input>`;
}
