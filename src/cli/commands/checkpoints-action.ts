/** What `taskweave checkpoints`, `undo`, `redo` and `rewind` print: loaded when one runs. */
import {
  type Checkpoint,
  DEFAULT_CHECKPOINT_KEEP_DAYS,
  type RestoreMode,
} from '../../runtime/checkpoints.js';
import { loadConfigFile } from '../../runtime/configuration.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import type { StoreCliOptions } from '../options.js';
import { checkpointListLines, restoreLines } from '../render/checkpoint-lines.js';
import { styleFor, terminalColumns } from '../render/terminal.js';
import { plural, wrapWords } from '../render/text-wrap.js';
import { withWorkspace } from './workspace-access.js';

export type CheckpointsOptions = StoreCliOptions & { prune?: boolean; keepDays?: number; json?: boolean };
export type RestoreCliOptions = StoreCliOptions & { force?: boolean; json?: boolean };
export type RewindCliOptions = RestoreCliOptions & {
  to?: number;
  task?: string;
  codeOnly?: boolean;
  conversationOnly?: boolean;
};

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
    const lines = checkpointListLines(found.id, checkpoints, style, width);
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
