import { spawn } from 'node:child_process';
import { CLI_PATH } from './cli.js';

/** An answer typed at the terminal once the output shows `after`. */
export interface TypedAnswer {
  after: string;
  type: string;
  /** Wait this long after the prompt shows before typing (to let other work go on meanwhile). */
  delayMs?: number;
}

/**
 * Runs the real CLI on a pseudo-terminal (util-linux `script`), so that it asks its questions
 * on "the terminal"; each answer is typed once its prompt shows. Resolves with the output
 * (escape sequences removed) and the exit code.
 */
export function runInTerminal(
  args: string[],
  answers: TypedAnswer[],
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const quoted = [process.execPath, CLI_PATH, ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, TERM: 'dumb', NO_COLOR: '1', TASKWEAVE_RETRY_BASE_MS: '10' },
  });
  let output = '';
  let next = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const answer = answers[next];
    if (answer && clean(output).split(answer.after).length - 1 > countBefore(next, answer.after)) {
      next += 1;
      setTimeout(() => child.stdin.write(`${answer.type}\r`), answer.delayMs ?? 0);
    }
  });
  const countBefore = (index: number, text: string) =>
    answers.slice(0, index).filter((answer) => answer.after === text).length;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: clean(output) });
    });
  });
}

function clean(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, '').replace(/\r/g, '');
}
