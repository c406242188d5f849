import { execSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointHarness, git, treeOf, userGitState, workspaceFolder } from './work-fixture.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** node_modules is ignored: change records leave it alone, so trees are compared without it. */
const ignored = (relative: string) =>
  relative === 'node_modules' || relative.startsWith(`node_modules${path.sep}`);

function write(root: string, file: string, content: string) {
  writeFileSync(path.join(root, file), content);
}

function sh(root: string, command: string) {
  execSync(command, { cwd: root, stdio: 'ignore' });
}

/** A repository with tracked, untracked, staged and ignored files, and a stash of the user's. */
function gitWorkspace(): string {
  const root = workspaceFolder('git');
  folders.push(root);
  write(root, '.gitignore', 'node_modules/\n');
  write(root, 'a.txt', 'alpha\n');
  write(root, 'b.txt', 'beta\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  write(root, 'a.txt', 'alpha, stashed by the user\n');
  git(root, 'stash', '-q');
  write(root, 'staged.txt', 'the user staged this\n');
  git(root, 'add', 'staged.txt');
  write(root, 'untracked.txt', 'untracked\n');
  sh(root, 'mkdir -p node_modules/pkg && echo ignored > node_modules/pkg/index.js');
  return root;
}

/**
 * Five steps of one run: write a new file, edit a tracked one, a command that creates, changes
 * and deletes (tracked, untracked and ignored files, a mode), a command that deletes a file, and
 * a write into a new folder. Returns the tree before each step and after the last.
 */
async function fiveSteps(
  root: string,
  harness: Awaited<ReturnType<typeof checkpointHarness>>,
  commands: boolean,
) {
  const run = await harness.run();
  const trees = [treeOf(root, ignored)];
  const files = (step: number, file: string, work: () => void) =>
    run.step({ changes: 'files', args: { path: file }, step }, work);
  const command = (step: number, line: string) =>
    run.step({ changes: 'command', args: { command: line }, step }, () => sh(root, line));
  await files(1, 'new.txt', () => write(root, 'new.txt', 'new\n'));
  trees.push(treeOf(root, ignored));
  await files(2, 'a.txt', () => write(root, 'a.txt', 'alpha edited\n'));
  trees.push(treeOf(root, ignored));
  if (commands) {
    await command(
      3,
      'echo made > made.txt && echo more >> b.txt && rm untracked.txt && echo dep > node_modules/pkg/dep.js && chmod +x new.txt',
    );
    trees.push(treeOf(root, ignored));
    await command(4, 'rm a.txt');
    trees.push(treeOf(root, ignored));
  }
  await files(5, 'deep/dir/out.txt', () => sh(root, 'mkdir -p deep/dir && echo out > deep/dir/out.txt'));
  trees.push(treeOf(root, ignored));
  await run.recorder.close();
  expect(run.errors).toEqual([]);
  return trees;
}

describe('checkpoints in a git repository', () => {
  it('undo, rewind to each step and redo give back the exact earlier trees; the user’s index, stash, branches and HEAD never change', async () => {
    const root = gitWorkspace();
    const userState = userGitState(root);
    const harness = await checkpointHarness(root);
    const trees = await fiveSteps(root, harness, true);
    const last = trees[trees.length - 1];
    const { checkpoints } = await harness.book.list(harness.session.id);
    expect(
      checkpoints.map((checkpoint) => checkpoint.files.map((file) => `${file.action} ${file.path}`)),
    ).toEqual([
      ['added new.txt'],
      ['modified a.txt'],
      ['modified b.txt', 'added made.txt', 'modified new.txt', 'deleted untracked.txt'],
      ['deleted a.txt'],
      ['added deep/dir/out.txt'],
    ]);

    for (let to = 1; to <= 5; to += 1) {
      const outcome = await harness.book.rewind(harness.session.id, { to });
      expect(outcome.conflicts).toEqual([]);
      expect(treeOf(root, ignored)).toEqual(trees[to - 1]);
      await harness.book.redo(harness.session.id);
      expect(treeOf(root, ignored)).toEqual(last);
    }
    await harness.book.undo(harness.session.id);
    expect(treeOf(root, ignored)).toEqual(trees[4]);
    await harness.book.undo(harness.session.id);
    expect(treeOf(root, ignored)).toEqual(trees[3]);
    await harness.book.redo(harness.session.id);
    expect(treeOf(root, ignored)).toEqual(trees[4]);
    // The ignored file the command wrote is not recorded, and is left where it is.
    expect(treeOf(root)['node_modules/pkg/dep.js']).toBe('dep\n');
    // Back at the start, git shows the user exactly what it showed before the session.
    await harness.book.rewind(harness.session.id, { to: 1 });
    expect(treeOf(root, ignored)).toEqual(trees[0]);
    expect(userGitState(root)).toBe(userState);
    // The contents are kept from git's garbage collection by a ref that is no branch.
    expect(git(root, 'for-each-ref', 'refs/taskweave')).toMatch(/refs\/taskweave\/checkpoints\//);
    await harness.store.close();
  });

  it('a command is recorded by one scan after it: what changed before it began is not its change, and a file a file tool wrote since has that content as its before', async () => {
    const root = gitWorkspace();
    const harness = await checkpointHarness(root);
    sh(root, 'mkdir docs && echo keep > docs/keep.txt && echo gone > docs/gone.txt');
    const run = await harness.run();
    const command = (step: number, line: string) =>
      run.step({ changes: 'command', args: { command: line }, step }, () => sh(root, line));
    await command(1, 'echo one > one.txt');
    // Between the commands: the user edits, creates and deletes files; a file tool writes one.
    write(root, 'b.txt', 'beta, edited by the user\n');
    write(root, 'user-new.txt', 'the user made this\n');
    rmSync(path.join(root, 'docs', 'gone.txt'));
    await run.step({ changes: 'files', args: { path: 'tool.txt' }, step: 2 }, () =>
      write(root, 'tool.txt', 'written by the tool\n'),
    );
    await run.step({ changes: 'files', args: { path: 'one.txt' }, step: 3 }, () =>
      write(root, 'one.txt', 'one, rewritten by the tool\n'),
    );
    await command(4, 'echo more >> tool.txt && echo two >> one.txt && rm staged.txt');
    await run.recorder.close();
    expect(run.errors).toEqual([]);
    const rows = await harness.store.changes.list(harness.session.id);
    const ofStep = (step: number) =>
      rows
        .filter((row) => row.step === step)
        .map((row) => row.path)
        .sort();
    expect(ofStep(1)).toEqual(['one.txt']);
    expect(ofStep(4)).toEqual(['one.txt', 'staged.txt', 'tool.txt']);
    // Undo of the command gives back what the file tools had left, and keeps the user's work.
    const undone = await harness.book.undo(harness.session.id);
    expect(undone.conflicts).toEqual([]);
    expect(readFileSync(path.join(root, 'tool.txt'), 'utf8')).toBe('written by the tool\n');
    expect(readFileSync(path.join(root, 'one.txt'), 'utf8')).toBe('one, rewritten by the tool\n');
    expect(readFileSync(path.join(root, 'staged.txt'), 'utf8')).toBe('the user staged this\n');
    expect(readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('beta, edited by the user\n');
    expect(existsSync(path.join(root, 'docs', 'gone.txt'))).toBe(false);
    expect(existsSync(path.join(root, 'user-new.txt'))).toBe(true);
  });

  it('in a workspace that is a folder of a repository, records only its files, links and modes included', async () => {
    const top = gitWorkspace();
    sh(top, 'mkdir app && echo app > app/main.txt && git add app && git commit -qm app');
    const root = path.join(top, 'app');
    const harness = await checkpointHarness(root);
    const run = await harness.run();
    const command = (step: number, line: string) =>
      run.step({ changes: 'command', args: { command: line }, step }, () => sh(root, line));
    const before = treeOf(root, ignored);
    await command(1, 'echo warm > warm.txt');
    const middle = treeOf(root, ignored);
    await command(
      2,
      'ln -s main.txt link.txt && chmod +x main.txt && echo outside >> ../b.txt && rm warm.txt',
    );
    await run.recorder.close();
    expect(run.errors).toEqual([]);
    const rows = await harness.store.changes.list(harness.session.id);
    expect(
      rows.filter((row) => row.step === 2).map((row) => `${row.path} ${row.afterMode?.toString(8)}`),
    ).toEqual(['link.txt 120000', 'main.txt 100755', 'warm.txt undefined']);
    await harness.book.undo(harness.session.id);
    expect(treeOf(root, ignored)).toEqual(middle);
    await harness.book.undo(harness.session.id);
    expect(treeOf(root, ignored)).toEqual(before);
    expect(readFileSync(path.join(top, 'b.txt'), 'utf8')).toBe('beta\noutside\n');
  });

  it('a file the user changed after the step is reported, kept, and put back only with force', async () => {
    const root = gitWorkspace();
    const harness = await checkpointHarness(root);
    const trees = await fiveSteps(root, harness, true);
    appendFileSync(path.join(root, 'made.txt'), 'the user added this\n');
    const outcome = await harness.book.rewind(harness.session.id, { to: 3 });
    expect(outcome.conflicts).toEqual([
      { path: 'made.txt', reason: 'was changed since taskweave left it (by you or another program)' },
    ]);
    expect(treeOf(root, ignored)['made.txt']).toBe('made\nthe user added this\n');
    expect(treeOf(root, ignored)['b.txt']).toBe('beta\n');
    const forced = await harness.book.rewind(harness.session.id, { to: 3 }, { force: true });
    expect(forced.files.map((file) => file.path)).toEqual(['made.txt']);
    expect(treeOf(root, ignored)).toEqual(trees[2]);
    await harness.store.close();
  });

  it('undoing one of two parallel tasks leaves the other’s files, and names a later task that changed the same file', async () => {
    const root = gitWorkspace();
    const harness = await checkpointHarness(root);
    const run = await harness.run();
    const lint = (step: number, work: () => void) =>
      run.step({ changes: 'command', args: {}, step, taskId: 'lint' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        work();
      });
    const docs = (step: number, file: string, work: () => void) =>
      run.step({ changes: 'files', args: { path: file }, step, taskId: 'docs' }, work);
    // The command of lint runs while docs writes its file: docs' file is docs' change, not lint's.
    await Promise.all([
      lint(1, () => sh(root, 'echo linted > lint.txt')),
      docs(2, 'README.md', () => write(root, 'README.md', '# docs\n')),
    ]);
    await docs(3, 'lint.txt', () => write(root, 'lint.txt', 'docs rewrote this\n'));
    await run.recorder.close();
    const outcome = await harness.book.rewind(harness.session.id, { task: 'lint' });
    expect(outcome.conflicts).toEqual([
      { path: 'lint.txt', reason: 'was changed later by checkpoint 3 (step 3 of task docs)' },
    ]);
    expect(treeOf(root, ignored)['README.md']).toBe('# docs\n');
    const docsBack = await harness.book.rewind(harness.session.id, { task: 'docs' });
    expect(docsBack.conflicts).toEqual([]);
    expect(treeOf(root, ignored)['README.md']).toBeUndefined();
    expect(treeOf(root, ignored)['lint.txt']).toBe('linted\n');
    await harness.store.close();
  });
});

describe('checkpoints in a plain folder', () => {
  it('records the file tools’ changes (not commands) and gives back the earlier trees', async () => {
    const root = workspaceFolder('plain');
    folders.push(root);
    write(root, 'a.txt', 'alpha\n');
    const harness = await checkpointHarness(root);
    const trees = await fiveSteps(root, harness, false);
    const { checkpoints } = await harness.book.list(harness.session.id);
    expect(checkpoints).toHaveLength(3);
    for (let to = 1; to <= 3; to += 1) {
      await harness.book.rewind(harness.session.id, { to });
      expect(treeOf(root)).toEqual(trees[to - 1]);
      await harness.book.redo(harness.session.id);
      expect(treeOf(root)).toEqual(trees[3]);
    }
    // Contents live in .taskweave/checkpoints/blobs, compressed and named by hash.
    expect(
      execSync('find .taskweave/checkpoints/blobs -type f | wc -l', { cwd: root, encoding: 'utf8' }).trim(),
    ).toBe('4');
    await harness.store.close();
  });
});

describe('pruning checkpoints', () => {
  it('removes the records and contents of sessions idle longer than keepDays, keeping what recent ones need', async () => {
    const root = workspaceFolder('plain');
    folders.push(root);
    const harness = await checkpointHarness(root);
    const run = await harness.run();
    await run.step({ changes: 'files', args: { path: 'shared.txt' }, step: 1 }, () =>
      write(root, 'shared.txt', 'shared\n'),
    );
    await run.step({ changes: 'files', args: { path: 'old.txt' }, step: 2 }, () =>
      write(root, 'old.txt', 'x'.repeat(5000)),
    );
    await run.recorder.close();
    // A second, recent session wrote the same content as the old one once.
    const recent = await harness.store.sessions.createSession({
      title: 'r',
      goal: 'r',
      workspace: root,
      model: 'm',
    });
    const { ChangeRecorder } = await import('../../src/work/change-recorder.js');
    const recorder = new ChangeRecorder({
      root,
      sessionId: recent.id,
      runId: 'run_recent',
      store: harness.store.changes,
    });
    await recorder.around(
      { callId: 'c', tool: 'write_file', changes: 'files', args: { path: 'again.txt' }, step: 1 },
      async () => write(root, 'again.txt', 'shared\n'),
    );
    await recorder.close();
    const day = 24 * 60 * 60 * 1000;
    // Nothing is older than 30 days yet.
    expect(await harness.book.prune(30)).toMatchObject({ sessions: 0, changes: 0, freedBytes: 0 });
    // Make the first session idle for 40 days.
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path.join(root, '.taskweave', 'taskweave.db'));
    db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(
      Date.now() - 40 * day,
      harness.session.id,
    );
    db.close();
    const pruned = await harness.book.prune(30);
    expect(pruned).toMatchObject({ sessions: 1, changes: 2 });
    expect(pruned.freedBytes).toBeGreaterThan(0);
    expect((await harness.book.list(harness.session.id)).checkpoints).toEqual([]);
    // The recent session's content (the same as the old one's shared.txt) is still there: its undo works.
    await harness.book.undo(recent.id);
    expect(treeOf(root)['again.txt']).toBeUndefined();
    await harness.book.redo(recent.id);
    expect(treeOf(root)['again.txt']).toBe('shared\n');
    await harness.store.close();
  });
});
