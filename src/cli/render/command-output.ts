const STDOUT_HEADER = '--- stdout ---\n';
const STDERR_HEADER = '\n--- stderr ---\n';
/** taskweave's notes to the model after the streams (run-command.ts COMMAND_NOTES_HEADER). */
const NOTES_HEADER = '\n--- taskweave ---\n';
/** What run_command writes for a stream that printed nothing. */
const EMPTY_STREAM = '(empty)';

/**
 * The output lines of a run_command result (stdout, then stderr), read back from the text the
 * tool gives the model: `Exit code: …`, `--- stdout ---`, …, `--- stderr ---`, …. Undefined
 * when the text is not a command's result (a refused call, another tool).
 */
export function commandOutputLines(result: string): string[] | undefined {
  const stdoutAt = result.indexOf(STDOUT_HEADER);
  const stderrAt = result.lastIndexOf(STDERR_HEADER);
  if (stdoutAt === -1 || stderrAt < stdoutAt) return undefined;
  const stdout = result.slice(stdoutAt + STDOUT_HEADER.length, stderrAt);
  const notesAt = result.lastIndexOf(NOTES_HEADER);
  const stderr = result.slice(stderrAt + STDERR_HEADER.length, notesAt > stderrAt ? notesAt : undefined);
  return [...streamLines(stdout), ...streamLines(stderr)];
}

function streamLines(text: string): string[] {
  if (text === EMPTY_STREAM) return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return lines.map((line) => line.slice(line.lastIndexOf('\r') + 1));
}
