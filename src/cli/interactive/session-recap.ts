import type { Runtime } from '../../runtime/index.js';
import type { Style } from '../render/terminal.js';
import { fitLine } from '../render/text-wrap.js';

/** How many earlier goals a continued session recalls. */
const RECAP_RUNS = 3;
/** Goals taskweave submitted itself (a continuation after a crash) start so: not the user's words. */
const OWN_GOAL_PREFIX = '[taskweave]';

/**
 * A short recap of a session's last goals, for a person coming back to it (`taskweave -c`,
 * `/resume`): each goal's first line as it was typed, and how its run ended (the final answer's
 * first line, or the status), one row each, cut to the terminal's width.
 */
export async function sessionRecap(options: {
  runtime: Runtime;
  sessionId: string;
  style: Style;
  columns: number;
}): Promise<string[]> {
  const { style, columns } = options;
  const { runs } = await options.runtime.sessions.detail(options.sessionId);
  const own = runs.filter((run) => !run.goal.startsWith(OWN_GOAL_PREFIX));
  const shown = own.slice(-RECAP_RUNS);
  const lines: string[] = [];
  if (own.length > shown.length)
    lines.push(
      style.dim(`  … ${own.length - shown.length} earlier goal${own.length - shown.length === 1 ? '' : 's'}`),
    );
  for (const run of shown) {
    lines.push(`  › ${fitLine(firstLine(run.goal), columns - 5)}`);
    const answer = run.finalAnswer ? firstLine(run.finalAnswer) : '';
    const outcome =
      run.status === 'completed'
        ? `✓ ${answer || 'completed'}`
        : `${run.status === 'failed' ? '✗' : '■'} ${run.status.replace('_', ' ')}${answer ? `: ${answer}` : ''}`;
    lines.push(style.dim(`    ${fitLine(outcome, columns - 5)}`));
  }
  return lines;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}
