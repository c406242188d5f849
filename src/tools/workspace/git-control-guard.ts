import { constants, lstat, open, realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { configEntries, isSafeConfigEntry } from './git-config-safety.js';
import {
  type GitControlEntry,
  type GitControlSnapshot,
  isInside,
  snapshotGitControls,
} from './git-control-snapshot.js';
import { isUnderGitFolder } from './git-paths.js';

/** What was found changed in git's control files after a command, and what was done about it. */
export interface GitControlFinding {
  /** Relative to the workspace. */
  path: string;
  what: string;
  undone: 'restored' | 'removed' | 'cleaned';
}

/**
 * Compares git's control files in the workspace after a command with the snapshot taken before it
 * (git-control-snapshot) and undoes what git would run or follow on the user's next git command:
 * - a config (or config.worktree) that gained an entry not on the safe list (git-config-safety) is
 *   restored; a new one loses those entries (or is removed when git cannot read it);
 * - a new or changed hook is removed or restored (`*.sample` files, which git never runs, stay);
 * - a new or changed `commondir` is removed or restored, unless a new one points at a git folder
 *   that was already there (what `git worktree add` writes);
 * - a new or changed `.git` file or link is removed or restored, unless it points at a git folder
 *   that was already there, or at one inside a `.git` folder of the workspace (`modules/`,
 *   `worktrees/`: checked like the others, and out of the file tools' reach). A git folder
 *   elsewhere could have its config written by write_file after the check.
 * Returns what was undone, for the model and the user.
 */
export async function undoGitControlChanges(
  root: string,
  before: GitControlSnapshot,
): Promise<GitControlFinding[]> {
  const after = await snapshotGitControls(root);
  const findings: GitControlFinding[] = [];
  for (const [absolute, now] of after.entries) {
    const was = before.entries.get(absolute);
    if (was !== undefined && sameEntry(was, now)) continue;
    const problem = await problemOf(absolute, now, was, before, after, root);
    if (problem === undefined) continue;
    const shown = path.relative(root, absolute);
    if (!(await safeToTouch(root, absolute))) continue;
    if (was !== undefined) {
      await restore(absolute, was);
      findings.push({ path: shown, what: problem, undone: 'restored' });
    } else if (now.role === 'config' && now.kind === 'file' && (await cleanConfig(absolute, now))) {
      findings.push({ path: shown, what: problem, undone: 'cleaned' });
    } else {
      await rm(absolute, { force: true });
      findings.push({ path: shown, what: problem, undone: 'removed' });
    }
  }
  return findings;
}

/** Why a new or changed entry must be undone, or undefined when it may stay. */
async function problemOf(
  absolute: string,
  now: GitControlEntry,
  was: GitControlEntry | undefined,
  before: GitControlSnapshot,
  after: GitControlSnapshot,
  root: string,
): Promise<string | undefined> {
  const verb = was === undefined ? 'new' : 'changed';
  switch (now.role) {
    case 'config': {
      if (now.kind === 'link') return `${verb}: a link to ${now.target}`;
      const added = await unsafeAdded(now.content, was);
      return added.length === 0 ? undefined : `${verb}: ${added.join(', ')}`;
    }
    case 'hook':
      return path.basename(absolute).endsWith('.sample') ? undefined : `${verb} hook`;
    case 'commondir': {
      const target = now.kind === 'link' ? undefined : now.content.toString('utf8').trim();
      const known =
        target !== undefined &&
        was === undefined &&
        before.gitFolders.has(await real(path.resolve(path.dirname(absolute), target)));
      return known ? undefined : `${verb}: points git at ${target ?? 'a link'}`;
    }
    case 'gitlink': {
      const target =
        now.kind === 'link'
          ? now.target
          : /^gitdir:\s*(.*)$/m.exec(now.content.toString('utf8'))?.[1]?.trim();
      if (target === undefined) return `${verb}: names no git folder`;
      const resolved = await real(path.resolve(path.dirname(absolute), target));
      // Inside a `.git` folder (modules/, worktrees/), where file tools cannot write its config later.
      const inGitFolder =
        isInside(root, resolved) &&
        after.gitFolders.has(resolved) &&
        isUnderGitFolder(path.relative(root, resolved));
      const fine = inGitFolder || before.gitFolders.has(resolved);
      return fine ? undefined : `${verb}: points git at ${target}`;
    }
  }
}

/** The entries of a config that are not safe and were not there before, as `key=value`. */
async function unsafeAdded(content: Buffer, was: GitControlEntry | undefined): Promise<string[]> {
  const entries = await configEntries(content);
  if (entries === null) return ['a file git cannot read'];
  const previous = was?.kind === 'file' ? ((await configEntries(was.content)) ?? []) : [];
  return [...new Set(entries.filter((entry) => !isSafeConfigEntry(entry) && !previous.includes(entry)))].map(
    (entry) => (entry.length > 120 ? `${entry.slice(0, 117)}...` : entry),
  );
}

/**
 * Rewrites a new config with its safe entries only; false (nothing done) when none is left or git
 * cannot read it or the result.
 */
async function cleanConfig(
  absolute: string,
  now: Extract<GitControlEntry, { kind: 'file' }>,
): Promise<boolean> {
  const safe = (await configEntries(now.content))?.filter(isSafeConfigEntry) ?? [];
  if (safe.length === 0) return false;
  const text = configText(safe);
  const check = await configEntries(Buffer.from(text));
  if (!check?.every(isSafeConfigEntry)) return false;
  await rm(absolute, { force: true });
  await writeExclusive(absolute, text, now.mode);
  return true;
}

/** A config file holding exactly `entries` (`section.sub.key=value`), values quoted. */
function configText(entries: string[]): string {
  const sections = new Map<string, string[]>();
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    const key = entry.slice(0, equals);
    const value = entry.slice(equals + 1);
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    const header =
      first === last
        ? `[${key.slice(0, first)}]`
        : `[${key.slice(0, first)} "${quoteConfigValue(key.slice(first + 1, last))}"]`;
    const lines = sections.get(header) ?? [];
    lines.push(`\t${key.slice(last + 1)} = "${quoteConfigValue(value)}"`);
    sections.set(header, lines);
  }
  return [...sections].map(([header, lines]) => `${header}\n${lines.join('\n')}\n`).join('');
}

function quoteConfigValue(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n').replaceAll('\t', '\\t');
}

/** Puts an entry back as it was: the file with its content and mode, or the link. */
async function restore(absolute: string, was: GitControlEntry): Promise<void> {
  await rm(absolute, { force: true, recursive: true });
  if (was.kind === 'link') await symlink(was.target, absolute);
  else await writeExclusive(absolute, was.content, was.mode);
}

/** Creates the file afresh, never through a link put in its place. */
async function writeExclusive(absolute: string, content: Buffer | string, mode: number): Promise<void> {
  const handle = await open(
    absolute,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode,
  );
  try {
    await handle.writeFile(content);
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/**
 * Whether the folder holding the entry is still where the walk found it (no link on the way, inside
 * the workspace): a folder swapped for a link would send the restore elsewhere.
 */
async function safeToTouch(root: string, absolute: string): Promise<boolean> {
  const folder = path.dirname(absolute);
  const resolved = await real(folder);
  return (
    resolved === folder &&
    isInside(root, resolved) &&
    (await lstat(folder).catch(() => undefined))?.isDirectory() === true
  );
}

async function real(absolute: string): Promise<string> {
  return realpath(absolute).catch(() => absolute);
}

function sameEntry(a: GitControlEntry, b: GitControlEntry): boolean {
  if (a.kind === 'link' || b.kind === 'link')
    return a.kind === b.kind && a.kind === 'link' && b.kind === 'link' && a.target === b.target;
  return a.mode === b.mode && a.content.equals(b.content);
}

/** What the model (and the user, in the tool's result) reads about the undone changes. */
export function gitControlNote(findings: GitControlFinding[]): string {
  const lines = findings.map((finding) => `- ${finding.path}: ${finding.what} (${finding.undone})`);
  return (
    "Git: taskweave undid changes the command made to git's configuration, hooks or pointers, which git would " +
    `run or follow on the user's next git command:\n${lines.join('\n')}\n` +
    'Only the user may change these. If the task needs it, tell the user what to run.'
  );
}
