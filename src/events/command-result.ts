const STATUS_LINE = /^(Exit code: -?\d+|Killed by signal|Timed out after|Stopped by the user)/;
const DURATION_LINE = /^Duration: (.+)$/;
const STDOUT_HEADER = '--- stdout ---\n';
const STDERR_HEADER = '\n--- stderr ---\n';
/** What run_command writes for a stream that printed nothing. */
const EMPTY_STREAM = '(empty)';

/** A run_command result taken apart for people: the streams' lines, without the model's framing. */
export interface CommandResult {
  /** The exit code, when the command exited by itself. */
  exitCode?: number;
  /** `12ms`, `1.4s`, when the tool gave one. */
  duration?: string;
  stdout: string[];
  stderr: string[];
}

/**
 * Reads back the text run_command gives the model (`Exit code: …`, `Duration: …`,
 * `--- stdout ---`, …, `--- stderr ---`, …) as its two streams' lines, for a front end to show
 * the output as output and the framing as its own UI. Undefined for any other text (a refused
 * call, another tool's result).
 */
export function parseCommandResult(text: string): CommandResult | undefined {
  if (!STATUS_LINE.test(text)) return undefined;
  const stdoutAt = text.indexOf(STDOUT_HEADER);
  const stderrAt = text.lastIndexOf(STDERR_HEADER);
  if (stdoutAt === -1 || stderrAt < stdoutAt) return undefined;
  const head = text.slice(0, stdoutAt).split('\n');
  const exit = /^Exit code: (-?\d+)$/.exec(head[0] ?? '');
  const duration = head.map((line) => DURATION_LINE.exec(line)?.[1]).find((found) => found !== undefined);
  return {
    ...(exit ? { exitCode: Number(exit[1]) } : {}),
    ...(duration !== undefined ? { duration } : {}),
    stdout: streamLines(text.slice(stdoutAt + STDOUT_HEADER.length, stderrAt)),
    stderr: streamLines(text.slice(stderrAt + STDERR_HEADER.length)),
  };
}

function streamLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  // Notes may follow an empty stream's marker (the sandbox's, after stderr).
  if (lines[0] === EMPTY_STREAM) lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  // A progress bar redraws its line with \r: only what stayed on screen is kept.
  return lines.map((line) => line.slice(line.lastIndexOf('\r') + 1));
}
