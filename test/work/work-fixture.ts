import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CheckpointBook } from '../../src/runtime/books/checkpoint-book.js';
import { SessionBook } from '../../src/runtime/books/session-book.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ChangeRecorder, type RecordedCall } from '../../src/work/change-recorder.js';

/** Runs git in a folder; its output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A new folder; with `git`, a repository with a first commit (a.txt, b.txt, .gitignore). */
export function workspaceFolder(kind: 'git' | 'plain'): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), `taskweave-work-${kind}-`)));
  if (kind === 'git') {
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.email', 'user@example.com');
    git(root, 'config', 'user.name', 'User');
  }
  return root;
}

/** Every file under a folder (git's and taskweave's folders aside): path → content (links: `-> target`, modes marked). */
export function treeOf(
  root: string,
  skip: (relative: string) => boolean = () => false,
): Record<string, string> {
  const tree: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const absolute = path.join(folder, entry);
      const relative = path.relative(root, absolute);
      if (relative === '.git' || relative === '.taskweave' || skip(relative)) continue;
      const stats = lstatSync(absolute);
      if (stats.isDirectory()) walk(absolute);
      else if (stats.isSymbolicLink()) tree[relative] = `-> ${readlinkSync(absolute)}`;
      else tree[relative] = `${stats.mode & 0o111 ? '[x] ' : ''}${readFileSync(absolute, 'utf8')}`;
    }
  };
  walk(root);
  return tree;
}

/** What of a repository the user owns: status, stash, branches, HEAD and the index file's bytes. */
export function userGitState(root: string): string {
  const index = createHash('sha256')
    .update(readFileSync(path.join(root, '.git', 'index')))
    .digest('hex');
  return [
    git(root, 'status', '--porcelain=v2', '--branch', '--untracked-files=all'),
    git(root, 'stash', 'list'),
    git(root, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/stash'),
    git(root, 'rev-parse', 'HEAD'),
    index,
  ].join('\n---\n');
}

/** A store with one session in a workspace, a recorder for runs of it, and its checkpoint book. */
export async function checkpointHarness(root: string) {
  mkdirSync(path.join(root, '.taskweave'), { recursive: true });
  writeFileSync(path.join(root, '.taskweave', '.gitignore'), '*\n');
  const store: Store = openSqliteStore({ path: path.join(root, '.taskweave', 'taskweave.db'), create: true });
  const session = await store.sessions.createSession({
    title: 't',
    goal: 'g',
    workspace: root,
    model: 'script:x',
  });
  let runs = 0;
  const book = new CheckpointBook(store, new SessionBook(store), root);
  return {
    store,
    session,
    book,
    /** A run: `step` records one call (its `work` changes the files). */
    async run() {
      runs += 1;
      const runId = `run_${runs}`;
      const errors: string[] = [];
      const recorder = new ChangeRecorder({
        root,
        sessionId: session.id,
        runId,
        store: store.changes,
        onError: (message) => errors.push(message),
      });
      let calls = 0;
      return {
        recorder,
        errors,
        step(
          call: Omit<RecordedCall, 'callId' | 'tool'> & { tool?: string },
          work: () => unknown | Promise<unknown>,
        ) {
          calls += 1;
          const tool = call.tool ?? (call.changes === 'command' ? 'run_command' : 'write_file');
          return recorder.around({ ...call, tool, callId: `call_${runs}_${calls}` }, async () => work());
        },
      };
    },
  };
}

/**
 * The worktrees of a repository besides its main checkout that are not idle for its next goals:
 * a worktree in taskweave's `.idle` folder counts here only when it holds a branch or is locked
 * (an idle one is detached and unlocked).
 */
export function worktreesLeft(root: string): string[] {
  const blocks = git(root, 'worktree', 'list', '--porcelain').split('\n\n').slice(1);
  return blocks
    .filter((block) => block.trim() !== '')
    .filter((block) => !/\/\.idle\/w-[0-9a-f]+\n/.test(block) || /^branch |^locked/m.test(block))
    .map((block) => block.split('\n')[0]?.slice('worktree '.length) ?? '');
}
