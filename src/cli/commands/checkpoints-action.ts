/** What `taskweave checkpoints`, `undo`, `redo` and `rewind` print: loaded when one runs. */
import { loadConfigFile } from '../../model/config-file.js';
import {
  type Checkpoint,
  DEFAULT_CHECKPOINT_KEEP_DAYS,
  fileCounts,
  type RestoreMode,
  type RestoreOutcome,
} from '../../runtime/checkpoint-book.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import type { StoreCliOptions } from '../options.js';
import { relativeTime } from '../render/relative-time.js';
import { styleFor, terminalColumns } from '../render/terminal.js';
import { fitLine, plural, wrapWords } from '../render/text-wrap.js';
import { withWorkspace } from './workspace-access.js';

export type CheckpointsOptions = StoreCliOptions & { prune?: boolean; keepDays?: number; json?: boolean };
export type RestoreCliOptions = StoreCliOptions & { force?: boolean; json?: boolean };
export type RewindCliOptions = RestoreCliOptions & {
  to?: number;
  task?: string;
  codeOnly?: boolean;
  conversationOnly?: boolean;
};

const ACTION_MARK = { added: '+', modified: '~', deleted: '-' } as const;

/** `taskweave checkpoints [session]` (or `--prune`): the exit code. */
export async function checkpointsAction(session: string, options: CheckpointsOptions): Promise<number> {
  const out = process.stdout;
  const style = styleFor(out);
  const width = terminalColumns(out) ?? 100;
  return withWorkspace(options, { readOnly: !options.prune }, async (access) => {
    const book = await access.checkpoints();
    if (options.prune) {
      const { config } = await loadConfigFile({ cwd: access.workspaceRoot, env: process.env });
      const keepDays = options.keepDays ?? config.checkpoints?.keepDays ?? DEFAULT_CHECKPOINT_KEEP_DAYS;
      const pruned = await book.prune(keepDays);
      if (options.json) {
        writeTerminal(out, `${JSON.stringify({ keep_days: keepDays, ...pruned })}\n`);
        return EXIT.completed;
      }
      const lines = [
        `Pruned the checkpoints of ${plural(pruned.sessions, 'session')} idle for more than ${plural(keepDays, 'day')}: ` +
          `${plural(pruned.changes, 'change record')}, ${formatBytes(pruned.freedBytes)} freed in .taskweave/checkpoints.`,
      ];
      if (pruned.releasedGitObjects > 0) {
        lines.push(
          `${plural(pruned.releasedGitObjects, 'content')} in the repository are no longer kept for undo; git frees them at its next gc (git gc --prune=now frees them at once).`,
        );
      }
      writeTerminal(out, `${lines.flatMap((line) => wrapWords(line, width)).join('\n')}\n`);
      return EXIT.completed;
    }
    const { session: found, checkpoints } = await book.list(session);
    if (options.json) {
      writeTerminal(
        out,
        `${JSON.stringify({ session_id: found.id, checkpoints: checkpoints.map(checkpointJson) }, null, 2)}\n`,
      );
      return EXIT.completed;
    }
    const lines = [
      `${style.bold(`Session ${found.id}`)} ${style.dim(`· ${plural(checkpoints.length, 'checkpoint')}`)}`,
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
      const head = `  #${checkpoint.number}  step ${checkpoint.step}${task}  ${checkpoint.tools.join(', ')}  ${fileCounts(checkpoint.files)}  ${style.dim(relativeTime(checkpoint.createdAt, now))}${undone}`;
      lines.push(fitLine(head, width));
      for (const file of checkpoint.files)
        lines.push(fitLine(`      ${ACTION_MARK[file.action]} ${file.path}`, width));
    }
    if (checkpoints.length > 0) {
      lines.push(
        '',
        ...wrapWords(
          style.dim(
            `taskweave undo takes the last back; taskweave rewind --to <n> goes back to before checkpoint n.`,
          ),
          width,
        ),
      );
    }
    writeTerminal(out, `${lines.join('\n')}\n`);
    return EXIT.completed;
  });
}

/** `taskweave undo|redo|rewind [session]`: the exit code (1 when conflicts were left). */
export async function restoreAction(
  kind: 'undo' | 'redo' | 'rewind',
  session: string,
  options: RewindCliOptions,
): Promise<number> {
  const out = process.stdout;
  const style = styleFor(out);
  const width = terminalColumns(out) ?? 100;
  if (options.codeOnly && options.conversationOnly) {
    const { UsageError } = await import('../usage-error.js');
    throw new UsageError('--code-only and --conversation-only exclude each other: leave both out for both.');
  }
  return withWorkspace(options, { readOnly: false }, async (access) => {
    const book = await access.checkpoints();
    const mode: RestoreMode | undefined = options.codeOnly
      ? 'code'
      : options.conversationOnly
        ? 'conversation'
        : undefined;
    const choices = { force: options.force, mode };
    const outcome =
      kind === 'undo'
        ? await book.undo(session, choices)
        : kind === 'redo'
          ? await book.redo(session, choices)
          : await book.rewind(session, { to: options.to, task: options.task }, choices);
    const found = await access.sessions.find(session);
    if (options.json) {
      writeTerminal(out, `${JSON.stringify({ session_id: found.id, ...outcome }, null, 2)}\n`);
    } else {
      writeTerminal(out, `${restoreLines(outcome, found.id, style, width).join('\n')}\n`);
    }
    return outcome.conflicts.length > 0 ? EXIT.failed : EXIT.completed;
  });
}

/** The lines a restore prints: what it did per file, the conflicts, and how to go on. */
export function restoreLines(
  outcome: RestoreOutcome,
  sessionId: string,
  style: ReturnType<typeof styleFor>,
  width: number,
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
  if (outcome.kind !== 'redo')
    lines.push(...wrapWords(style.dim(`To put it back: taskweave redo ${id}`), width));
  return lines;
}

function checkpointJson(checkpoint: Checkpoint) {
  return {
    number: checkpoint.number,
    run_id: checkpoint.runId,
    step: checkpoint.step,
    task_id: checkpoint.taskId,
    tools: checkpoint.tools,
    files: checkpoint.files,
    undone: checkpoint.undone,
    created_at: checkpoint.createdAt,
  };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
