import { git, gitOutcome } from './git.js';
import { commitIdentity, commitOf } from './goal-branch.js';

/** Lines of each side shown per conflicting file. */
export const CONFLICT_SIDE_LINES = 30;

/** One file two branches changed in ways git cannot put together: what each side did to it. */
export interface MergeConflictFile {
  path: string;
  /** The goal branch's change to the file since the two parted (a diff, cut to CONFLICT_SIDE_LINES). */
  goal: string;
  /** The task's change to the file since the two parted. */
  task: string;
}

/** How merging a task branch into its goal branch went. */
export type MergeOutcome =
  | { kind: 'merged'; commit: string }
  /** The task's commits are in the goal branch already (merged before a crash, say): not merged again. */
  | { kind: 'already-merged'; commit: string }
  /** The task committed nothing of its own (its work was on the goal branch already): nothing to merge. */
  | { kind: 'unchanged'; commit: string }
  | { kind: 'conflict'; files: MergeConflictFile[] };

/**
 * Merges `from` into the branch `into` without any checkout: `git merge-tree --write-tree`
 * computes the merged tree in the object database, `commit-tree` makes the merge commit (two
 * parents: the goal's tip first, then the task's), and `update-ref` moves the branch only if
 * it is still where it was read (compare and swap). A kill at any point leaves the branch
 * either before or after the merge, never half-way, and no index or working tree to clean.
 * A merge rather than a rebase: the task's commits (its checkpoints) keep their ids, and each
 * task is one merge commit on the goal branch that can be reverted as a whole.
 */
export async function mergeBranch(options: {
  top: string;
  into: string;
  from: string;
  message: string;
  /** commitIdentity's answer when the caller has it (asked here otherwise). */
  identity?: Record<string, string>;
  /** The commits `into` and `from` are at, when the caller knows them (read here otherwise). */
  target?: string;
  source?: string;
}): Promise<MergeOutcome> {
  const { top } = options;
  const intoRef = `refs/heads/${options.into}`;
  const target = options.target ?? (await commitOf(top, intoRef));
  const source = options.source ?? (await commitOf(top, `refs/heads/${options.from}`));
  if (!target) throw new Error(`The branch ${options.into} does not exist.`);
  if (!source) throw new Error(`The branch ${options.from} does not exist.`);
  const ancestor = await gitOutcome(['merge-base', '--is-ancestor', source, target], { cwd: top });
  if (ancestor.code === 0)
    return {
      kind: (await onFirstParentLine(top, source, target)) ? 'unchanged' : 'already-merged',
      commit: target,
    };
  const merged = await gitOutcome(
    ['merge-tree', '--write-tree', '--name-only', '--no-messages', target, source],
    {
      cwd: top,
    },
  );
  if (merged.code === 1) {
    const paths = merged.stdout
      .split('\n')
      .slice(1)
      .filter((line) => line !== '');
    return { kind: 'conflict', files: await conflictSides(top, target, source, [...new Set(paths)]) };
  }
  if (merged.code !== 0) throw new Error(`git merge-tree failed: ${merged.stderr.trim()}`);
  const tree = merged.stdout.split('\n')[0]?.trim() ?? '';
  const commit = (
    await git(['commit-tree', tree, '-p', target, '-p', source, '-m', options.message], {
      cwd: top,
      env: options.identity ?? (await commitIdentity(top)),
    })
  )
    .toString('utf8')
    .trim();
  await git(['update-ref', '-m', options.message, intoRef, commit, target], { cwd: top });
  return { kind: 'merged', commit };
}

/** Each side's change to each conflicting file since the two branches parted. */
export async function conflictSides(
  top: string,
  target: string,
  source: string,
  paths: string[],
): Promise<MergeConflictFile[]> {
  const base = (await git(['merge-base', target, source], { cwd: top })).toString('utf8').trim();
  const side = async (tip: string, file: string) => {
    const diff = (
      await git(['diff', '--no-color', '--no-ext-diff', base, tip, '--', file], { cwd: top })
    ).toString('utf8');
    const lines = diff.split('\n').filter((line) => !/^(diff --git|index |--- |\+\+\+ )/.test(line));
    const shown = lines.slice(0, CONFLICT_SIDE_LINES).join('\n').trimEnd();
    return lines.length > CONFLICT_SIDE_LINES
      ? `${shown}\n… (${lines.length - CONFLICT_SIDE_LINES} more lines)`
      : shown;
  };
  return Promise.all(
    paths.map(async (file) => ({
      path: file,
      goal: await side(target, file),
      task: await side(source, file),
    })),
  );
}

/** The conflict as text for the user and the model: the files and both sides of each. */
export function describeConflict(
  files: readonly MergeConflictFile[],
  names: { goal: string; task: string },
): string {
  const parts = files.map(
    (file) =>
      `${file.path}\n  ${names.goal} changed:\n${indent(file.goal || '(nothing: removed or added on one side)')}\n  ${names.task} changed:\n${indent(file.task || '(nothing)')}`,
  );
  return `The merge conflicts in ${files.length === 1 ? '1 file' : `${files.length} files`}: ${files.map((file) => file.path).join(', ')}.\n${parts.join('\n')}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * Whether `commit` is on the goal branch's own line (its first parents from `tip`): a task branch
 * still there made no commit of its own, where one merged before sits behind a merge's second parent.
 * The walk stops at the commit's parents, so it reads no more than the goal's own commits.
 */
async function onFirstParentLine(top: string, commit: string, tip: string): Promise<boolean> {
  const line = await git(['rev-list', '--first-parent', tip, '--not', `${commit}^@`], { cwd: top });
  return line.toString('utf8').split('\n').includes(commit);
}
