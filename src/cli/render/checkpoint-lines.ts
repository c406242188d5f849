import { type Checkpoint, fileCounts, type RestoreOutcome } from '../../runtime/checkpoints.js';
import { relativeTime } from './relative-time.js';
import type { Style } from './terminal.js';
import { fitLine, plural, wrapWords } from './text-wrap.js';

const ACTION_MARK = { added: '+', modified: '~', deleted: '-' } as const;

/**
 * A session's checkpoints as `taskweave checkpoints` and `/rewind` list them, like `git log --stat`:
 * each by the one number `rewind --to` takes (a run's step numbers start again with each run, so
 * they are not shown beside it to be taken for it).
 */
export function checkpointListLines(
  sessionId: string,
  checkpoints: Checkpoint[],
  style: Style,
  width: number,
  /** What to do next, said under the list. */
  hint = 'taskweave undo takes the last back; taskweave rewind --to <n> goes back to before checkpoint n.',
): string[] {
  const lines = [
    `${style.bold(`Session ${sessionId}`)} ${style.dim(`· ${plural(checkpoints.length, 'checkpoint')}`)}`,
  ];
  if (checkpoints.length === 0) {
    lines.push(
      ...wrapWords(
        style.dim(
          '  No step of this session changed files (commands are recorded in git repositories only).',
        ),
        width,
      ),
    );
  }
  const now = Date.now();
  for (const checkpoint of checkpoints) {
    const task = checkpoint.taskId === null ? '' : ` [${checkpoint.taskId}]`;
    const undone =
      checkpoint.undone === 'no'
        ? ''
        : style.yellow(checkpoint.undone === 'yes' ? ' (undone)' : ' (partly undone)');
    const head = `  #${checkpoint.number}${task}  ${checkpoint.tools.join(', ')}  ${fileCounts(checkpoint.files)}  ${style.dim(relativeTime(checkpoint.createdAt, now))}${undone}`;
    lines.push(fitLine(head, width));
    for (const file of checkpoint.files)
      lines.push(fitLine(`      ${ACTION_MARK[file.action]} ${file.path}`, width));
  }
  if (checkpoints.length > 0) {
    lines.push('', ...wrapWords(style.dim(hint), width));
  }

  return lines;
}

/** The lines a restore prints: what it did per file, the conflicts, and how to go on. */
export function restoreLines(
  outcome: RestoreOutcome,
  sessionId: string,
  style: Style,
  width: number,
  /** How to put it back (`<id>` is the session's id). */
  redoHint = 'To put it back: taskweave redo <id>',
): string[] {
  const lines: string[] = [];
  if (outcome.completedPending)
    lines.push(...wrapWords(style.dim('An interrupted restore was completed first.'), width));
  const numbers = outcome.checkpoints.map((n) => `#${n}`).join(', ');
  const changed = outcome.files.filter((file) => file.action !== 'unchanged');
  const verb =
    outcome.kind === 'undo'
      ? 'Undid'
      : outcome.kind === 'redo'
        ? 'Redid'
        : `Rewound to before #${outcome.checkpoint}:`;
  const what =
    outcome.mode === 'conversation'
      ? 'the conversation only'
      : `${plural(changed.length, 'file')} put back` +
        (outcome.files.length > changed.length
          ? ` (${outcome.files.length - changed.length} already were)`
          : '');
  lines.push(
    ...wrapWords(
      `${style.bold(verb)} ${outcome.kind === 'rewind' ? '' : `checkpoint ${numbers}: `}${what}.`,
      width,
    ),
  );
  for (const file of changed) {
    const mark =
      file.action === 'deleted'
        ? style.red('-')
        : file.action === 'created'
          ? style.green('+')
          : style.yellow('~');
    lines.push(fitLine(`  ${mark} ${file.path}`, width));
  }
  if (outcome.conflicts.length > 0) {
    lines.push(
      style.red(
        `Left as they are (${plural(outcome.conflicts.length, 'conflict')}; --force overwrites them):`,
      ),
    );
    for (const conflict of outcome.conflicts) {
      lines.push(...wrapWords(`  ! ${conflict.path}: ${conflict.reason}`, width, '    '));
    }
  }
  if (outcome.mode !== 'code') {
    const said =
      outcome.kind === 'redo'
        ? `${plural(outcome.messages, 'message')} put back into the conversation.`
        : outcome.messages > 0
          ? `The conversation goes back to before #${outcome.checkpoint}: ${plural(outcome.messages, 'message')} set aside (kept in the log), so the next message continues from there.`
          : 'No message of the conversation was after that point.';
    lines.push(...wrapWords(said, width));
    if (outcome.taskConversations.length > 0) {
      lines.push(
        ...wrapWords(
          style.dim(
            `Plan tasks' own conversations are not rewound (${outcome.taskConversations.join(', ')}): only their files.`,
          ),
          width,
        ),
      );
    }
  }
  const id = sessionId.slice(0, 8);
  // Redo puts back what was taken back: after a restore that took nothing back there is none.
  const tookBack = changed.length > 0 || (outcome.mode !== 'code' && outcome.messages > 0);
  if (outcome.kind !== 'redo' && tookBack)
    lines.push(...wrapWords(style.dim(redoHint.replace('<id>', id)), width));
  return lines;
}
