import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { worktreeText } from '../../src/events/worktree-text.js';
import { applyGoal, goalDiff, leftoverWorktrees, pruneWorktrees } from '../../src/work/apply-goal.js';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { listWorktrees } from '../../src/work/worktree.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, userGitState, workspaceFolder, worktreesLeft } from './work-fixture.js';

const LINES = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);

/** A repository with one committed file of 20 lines, node_modules and .env ignored. */
function repository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, 'shared.txt'), `${LINES.join('\n')}\n`);
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n.env\n.taskweave/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  mkdirSync(path.join(root, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(path.join(root, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(path.join(root, '.env'), 'TOKEN=x\n');
  return root;
}

function edit(file: string, line: number, text: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[line - 1] = text;
  writeFileSync(file, lines.join('\n'));
}

/** The user's state, taskweave's own branches (which it adds) left out. */
function userState(root: string): string {
  return userGitState(root)
    .split('\n')
    .filter((line) => !line.startsWith('refs/heads/taskweave/'))
    .join('\n');
}

const setup = { share: ['node_modules'], copy: ['.env'] };
/** The worktrees made ahead of goals, as a runtime has them: one for this file's goals. */
const ahead = new WorktreesAhead();

describe('GoalWorktrees', () => {
  it('merges two tasks that changed different parts of one file, without touching the user checkout', async () => {
    const root = repository();
    writeFileSync(path.join(root, 'scratch.txt'), 'the user was here\n');
    git(root, 'add', 'scratch.txt');
    const before = userState(root);
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'plan_1', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    const b = await goal.placeFor('b', { fresh: true });
    expect(a.folder).toContain(`${path.sep}.git${path.sep}taskweave${path.sep}worktrees${path.sep}`);
    expect(lstatSync(path.join(a.root, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(b.root, '.env'), 'utf8')).toBe('TOKEN=x\n');
    // Staged in the user's index, not committed: not in the task worktrees.
    expect(existsSync(path.join(a.root, 'scratch.txt'))).toBe(false);
    edit(path.join(a.root, 'shared.txt'), 2, 'line 2 by a');
    edit(path.join(b.root, 'shared.txt'), 18, 'line 18 by b');
    expect(await goal.commitStep('a', 'step 1')).toMatch(/^[0-9a-f]{40}$/);
    expect(await goal.commitStep('b', 'step 1')).toMatch(/^[0-9a-f]{40}$/);
    // The links and copies taskweave made are not committed.
    expect(git(a.folder, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('shared.txt');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    expect((await goal.mergeTask('b', 'B')).kind).toBe('merged');
    const merged = git(root, 'show', 'taskweave/plan_1:shared.txt');
    expect(merged).toContain('line 2 by a');
    expect(merged).toContain('line 18 by b');
    // Merged once only: a second merge (a resume after a crash) finds it there.
    expect((await goal.mergeTask('a', 'A')).kind).toBe('already-merged');
    expect(git(root, 'rev-list', '--merges', '--count', 'taskweave/plan_1').trim()).toBe('2');
    await goal.end();
    expect(worktreesLeft(root)).toEqual([]);
    expect(userState(root)).toBe(before);
    expect(readFileSync(path.join(root, 'shared.txt'), 'utf8')).toBe(`${LINES.join('\n')}\n`);
  });

  it('a task that committed nothing of its own is unchanged, not merged before a crash', async () => {
    const root = repository();
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'plan_same', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    edit(path.join(a.root, 'shared.txt'), 2, 'line 2 by a');
    await goal.commitStep('a', 'step 1');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    // b starts from the goal branch with a's work on it and finds nothing to do.
    await goal.placeFor('b', { fresh: true });
    expect(await goal.commitStep('b', 'step 1')).toBeUndefined();
    expect((await goal.mergeTask('b', 'B')).kind).toBe('unchanged');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('already-merged');
    expect(
      worktreeText({
        type: 'agent_update',
        update_type: 'task_merged',
        task_id: 'b',
        branch: 'taskweave/plan_same.b',
        commit: 'abc1234',
        already: true,
        unchanged: true,
      }),
    ).toBe('[b] changed nothing the goal branch does not have already: nothing to merge');
    await goal.end();
  });

  it('reports a conflict on the same lines with both sides, and leaves the goal branch as it was', async () => {
    const root = repository();
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'plan_2', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    const b = await goal.placeFor('b', { fresh: true });
    edit(path.join(a.root, 'shared.txt'), 5, 'five from a');
    edit(path.join(b.root, 'shared.txt'), 5, 'five from b');
    await goal.commitStep('a', 'a');
    await goal.commitStep('b', 'b');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    const tip = git(root, 'rev-parse', 'taskweave/plan_2');
    const conflict = await goal.mergeTask('b', 'B');
    if (conflict.kind !== 'conflict') throw new Error(`expected a conflict, got ${conflict.kind}`);
    expect(conflict.files.map((file) => file.path)).toEqual(['shared.txt']);
    expect(conflict.files[0]?.goal).toContain('+five from a');
    expect(conflict.files[0]?.task).toContain('+five from b');
    expect(conflict.description).toContain('taskweave/plan_2.b changed:');
    expect(git(root, 'rev-parse', 'taskweave/plan_2')).toBe(tip);
    // A retry starts again from the goal branch as it is now: a's work is there.
    const again = await goal.placeFor('b', { fresh: true });
    expect(readFileSync(path.join(again.root, 'shared.txt'), 'utf8')).toContain('five from a');
    await goal.end();
  });

  it('switches the worktree of a merged task to the next task: only tracked files, shared links kept, copies made again', async () => {
    const root = repository();
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'pool1', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    edit(path.join(a.root, 'shared.txt'), 3, 'three by a');
    writeFileSync(path.join(a.root, 'notes.txt'), 'committed by a\n');
    await goal.commitStep('a', 'a');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    // What a's last command left behind: an untracked file, an ignored build output, the copy gone.
    writeFileSync(path.join(a.root, 'scratch.tmp'), 'junk\n');
    mkdirSync(path.join(a.root, 'node_modules', '.cache'), { recursive: true });
    rmSync(path.join(a.root, '.env'));
    goal.releaseTask('a');
    const b = await goal.placeFor('b', { fresh: true });
    expect(b.folder).toBe(a.folder);
    expect(b.reused).toBe(true);
    expect(git(b.folder, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('taskweave/pool1.b');
    expect(readFileSync(path.join(b.root, 'shared.txt'), 'utf8')).toContain('three by a');
    expect(readFileSync(path.join(b.root, 'notes.txt'), 'utf8')).toBe('committed by a\n');
    expect(existsSync(path.join(b.root, 'scratch.tmp'))).toBe(false);
    // The link survives the switch, and what is behind it (the user's node_modules) is untouched.
    expect(lstatSync(path.join(b.root, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(root, 'node_modules', 'left-pad', 'index.js'), 'utf8')).toBe(
      'module.exports = 1;\n',
    );
    expect(readFileSync(path.join(b.root, '.env'), 'utf8')).toBe('TOKEN=x\n');
    expect(existsSync(path.join(root, 'node_modules', '.cache'))).toBe(true);
    expect(git(b.folder, 'status', '--porcelain')).toBe('?? node_modules\n');
    // A failed task keeps its worktree (not released): the next task gets another; its retry gets it back.
    const c = await goal.placeFor('c', { fresh: true });
    writeFileSync(path.join(c.root, 'half.txt'), 'half done\n');
    await goal.commitStep('c', 'c');
    const d = await goal.placeFor('d', { fresh: true });
    expect(d.folder).not.toBe(c.folder);
    expect(readFileSync(path.join(c.root, 'half.txt'), 'utf8')).toBe('half done\n');
    const retry = await goal.placeFor('c', { fresh: true });
    expect(retry.folder).toBe(c.folder);
    expect(existsSync(path.join(c.root, 'half.txt'))).toBe(false);
    await goal.end();
    expect(worktreesLeft(root)).toEqual([]);
  });

  it('checks the first worktree out ahead of the goal (the plan awaiting approval); the first task only switches it', async () => {
    const root = repository();
    const warm = GoalWorktrees.prewarm({ workspaceRoot: root, goalId: 'warm1', ahead });
    await warm.ready;
    const [madeAhead] = (await listWorktrees(root)).filter((entry) => entry.path !== root);
    expect(madeAhead?.branch).toBeUndefined();
    expect(madeAhead?.head).toBe(git(root, 'rev-parse', 'HEAD').trim());
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'warm1', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    expect(a.folder).toBe(madeAhead?.path);
    expect(a.reused).toBe(true);
    expect(git(a.folder, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('taskweave/warm1.a');
    expect(lstatSync(path.join(a.root, 'node_modules')).isSymbolicLink()).toBe(true);
    await goal.end();
    // A plan not approved: its worktree made ahead is taken away again.
    const rejected = GoalWorktrees.prewarm({ workspaceRoot: root, goalId: 'warm2', ahead });
    await rejected.ready;
    expect(await listWorktrees(root)).toHaveLength(2);
    await rejected.discard();
    expect((await listWorktrees(root)).map((entry) => entry.path)).toEqual([root]);
    expect(git(root, 'for-each-ref', 'refs/heads/taskweave/warm2')).toBe('');
  });

  it('resolves a conflict in the task worktree, and a new process finds the merge still open', async () => {
    const root = repository();
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'res1', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    const b = await goal.placeFor('b', { fresh: true });
    edit(path.join(a.root, 'shared.txt'), 5, 'five from a');
    edit(path.join(b.root, 'shared.txt'), 5, 'five from b');
    await goal.commitStep('a', 'a');
    await goal.commitStep('b', 'b');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    expect((await goal.mergeTask('b', 'B')).kind).toBe('conflict');
    goal.releaseTask('a');
    const again = await goal.placeFor('b', { fresh: false });
    expect(again.folder).toBe(b.folder);
    const started = await goal.startResolve('b');
    expect(started.files).toEqual(['shared.txt']);
    expect(started.description).toContain('+five from a');
    expect(readFileSync(path.join(b.root, 'shared.txt'), 'utf8')).toMatch(/^<<<<<<< /m);
    // The process is killed here; the next one opens the goal again and continues b.
    const next = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'res1', setup, ahead });
    if (!next) throw new Error('no goal');
    const continued = await next.placeFor('b', { fresh: false });
    expect(continued.folder).toBe(b.folder);
    expect(continued.created).toBe(false);
    expect(next.isResolving('b')).toBe(true);
    // Not committed while a marker is left: the markers would be merged as text.
    expect(await next.commitStep('b', 'half')).toBeUndefined();
    expect(await next.unresolvedFiles('b')).toEqual(['shared.txt']);
    edit(path.join(b.root, 'shared.txt'), 5, 'five from a and b');
    const text = readFileSync(path.join(b.root, 'shared.txt'), 'utf8')
      .split('\n')
      .filter((line) => !/^(<{7}|={7}|>{7})/.test(line) && line !== 'five from a' && line !== 'five from b')
      .join('\n');
    writeFileSync(path.join(b.root, 'shared.txt'), text);
    expect(await next.unresolvedFiles('b')).toEqual([]);
    const resolved = await next.commitStep('b', 'resolved');
    expect(
      git(b.folder, 'log', '-1', '--format=%P', resolved ?? 'HEAD')
        .trim()
        .split(' '),
    ).toHaveLength(2);
    expect(next.isResolving('b')).toBe(false);
    expect((await next.mergeTask('b', 'B')).kind).toBe('merged');
    expect(git(root, 'show', 'taskweave/res1:shared.txt')).toContain('five from a and b');
    await next.end();
  });

  it('keeps the links of a workspace in a subfolder across a switch, and with a setup command its ignored files too', async () => {
    const root = workspaceFolder('git');
    mkdirSync(path.join(root, 'app', 'node_modules', 'dep'), { recursive: true });
    writeFileSync(path.join(root, 'app', 'node_modules', 'dep', 'index.js'), 'dep\n');
    writeFileSync(path.join(root, 'app', 'main.txt'), 'main\n');
    writeFileSync(path.join(root, '.gitignore'), 'node_modules/\ndist/\n.taskweave/\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'app');
    const workspace = path.join(root, 'app');
    for (const [goalId, withSetup] of [
      ['sub1', false],
      ['sub2', true],
    ] as const) {
      const goal = await GoalWorktrees.open({
        workspaceRoot: workspace,
        goalId,
        setup: { share: ['node_modules'], copy: [], ...(withSetup ? { setup: 'true' } : {}) },
        ahead,
      });
      if (!goal) throw new Error('no goal');
      const a = await goal.placeFor('a', { fresh: true });
      expect(path.relative(a.folder, a.root)).toBe('app');
      expect(lstatSync(path.join(a.root, 'node_modules')).isSymbolicLink()).toBe(true);
      mkdirSync(path.join(a.root, 'dist'));
      writeFileSync(path.join(a.root, 'dist', 'out.js'), 'built\n');
      writeFileSync(path.join(a.root, 'notes.tmp'), 'untracked\n');
      // The setup command runs once per worktree: in a's, not again in b's.
      expect(a.needsSetup).toBe(withSetup);
      goal.setUpDone('a');
      goal.releaseTask('a');
      const b = await goal.placeFor('b', { fresh: true });
      expect(b.folder).toBe(a.folder);
      expect(lstatSync(path.join(b.root, 'node_modules')).isSymbolicLink()).toBe(true);
      expect(readFileSync(path.join(b.root, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('dep\n');
      expect(existsSync(path.join(b.root, 'notes.tmp'))).toBe(false);
      // What a setup command made (ignored) stays when there is one; without, it goes.
      expect(existsSync(path.join(b.root, 'dist', 'out.js'))).toBe(withSetup);
      expect(b.needsSetup).toBe(false);
      await goal.end();
    }
    expect(readFileSync(path.join(root, 'app', 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('dep\n');
  });

  it('starts the goal branch with the uncommitted changes only when asked', async () => {
    const root = repository();
    writeFileSync(path.join(root, 'draft.txt'), 'not committed\n');
    const plain = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'p3', setup, ahead });
    const withChanges = await GoalWorktrees.open({
      workspaceRoot: root,
      goalId: 'p4',
      includeUncommitted: true,
      setup,
      ahead,
    });
    expect(git(root, 'rev-parse', 'taskweave/p3')).toBe(git(root, 'rev-parse', 'HEAD'));
    expect(git(root, 'show', 'taskweave/p4:draft.txt')).toBe('not committed\n');
    expect(git(root, 'status', '--porcelain')).toBe('?? draft.txt\n');
    expect(plain && withChanges).toBeTruthy();
  });

  it('continues a task worktree a killed process left, and makes again one left half made', async () => {
    const root = repository();
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'p5', setup, ahead });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    writeFileSync(path.join(a.root, 'new.txt'), 'work\n');
    await goal.commitStep('a', 'a');
    // A commit killed half-way leaves the worktree's index.lock.
    const gitDir = git(a.folder, 'rev-parse', '--absolute-git-dir').trim();
    writeFileSync(path.join(gitDir, 'index.lock'), '');
    const again = await goal.placeFor('a', { fresh: false });
    expect(again.created).toBe(false);
    expect(existsSync(path.join(gitDir, 'index.lock'))).toBe(false);
    // `git worktree add` killed while populating: locked, its files not checked out (no index).
    git(root, 'worktree', 'lock', '--reason', 'initializing', a.folder);
    rmSync(path.join(gitDir, 'index'));
    const remade = await goal.placeFor('a', { fresh: false });
    expect(remade.created).toBe(true);
    expect(readFileSync(path.join(remade.root, 'new.txt'), 'utf8')).toBe('work\n');
    await goal.end();
    expect(git(root, 'worktree', 'list', '--porcelain')).not.toContain('locked');
  });
});

it('makes the worktree of a task whose `git worktree add -B` was killed before git registered it (its ref lock left behind)', async () => {
  const root = repository();
  const first = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'p6', setup, ahead });
  if (!first) throw new Error('no goal');
  await first.placeFor('a', { fresh: true });
  // Killed while it created task b's branch: git's lock on the ref stays, no worktree, no branch.
  const refs = path.join(root, '.git', 'refs', 'heads', 'taskweave');
  writeFileSync(path.join(refs, 'p6.b.lock'), '');
  // A lock of another goal's branch is not this goal's to take away.
  writeFileSync(path.join(refs, 'p66.b.lock'), '');
  const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'p6', setup, ahead });
  if (!goal) throw new Error('no goal');
  const b = await goal.placeFor('b', { fresh: true });
  expect(b.created).toBe(true);
  expect(git(b.folder, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('taskweave/p6.b');
  expect(existsSync(path.join(refs, 'p6.b.lock'))).toBe(false);
  expect(existsSync(path.join(refs, 'p66.b.lock'))).toBe(true);
  await goal.end();
});

describe('parallel tasks', () => {
  it('gives tasks starting together their own worktrees, and the worktree of a merged task to the next task', async () => {
    const root = repository();
    // Enough files that `git worktree add` takes a while: the window another task's prune hit.
    for (let index = 0; index < 2000; index++) writeFileSync(path.join(root, `f${index}.txt`), `${index}\n`);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'many files');
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'p6', setup, ahead });
    if (!goal) throw new Error('no goal');
    const branchesOut = async () =>
      (await listWorktrees(root))
        .filter((entry) => entry.path !== root)
        .map((entry) => entry.branch?.replace('refs/heads/taskweave/p6.', ''))
        .sort();
    const first = await Promise.all(['a', 'b', 'c', 'd'].map((id) => goal.placeFor(id, { fresh: true })));
    expect(new Set(first.map((place) => place.folder)).size).toBe(4);
    expect(first.every((place) => place.created && !place.reused)).toBe(true);
    // a and b end (merged) while e, f and g start: two take their worktrees, one is new.
    goal.releaseTask('a');
    goal.releaseTask('b');
    const next = await Promise.all(['e', 'f', 'g'].map((id) => goal.placeFor(id, { fresh: true })));
    expect(
      next
        .filter((place) => place.reused)
        .map((place) => place.folder)
        .sort(),
    ).toEqual([first[0]?.folder, first[1]?.folder].sort());
    expect(new Set([...first, ...next].map((place) => place.folder)).size).toBe(5);
    expect(await branchesOut()).toEqual(['c', 'd', 'e', 'f', 'g']);
    await goal.end();
    // What stays is idle for the repository's next goal (detached): no task's branch.
    expect(worktreesLeft(root)).toEqual([]);
  }, 120_000);
});

describe('goal diff and apply', () => {
  async function goalWithChange(root: string, goalId: string, line: number, text: string, goalText?: string) {
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId, setup, ahead, goal: goalText });
    if (!goal) throw new Error('no goal');
    const place = await goal.placeFor('a', { fresh: true });
    edit(path.join(place.root, 'shared.txt'), line, text);
    await goal.commitStep('a', 'a');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    await goal.end();
  }

  it('shows the goal as stat and patch, and applies it onto a branch the user moved on meanwhile', async () => {
    const root = repository();
    await goalWithChange(root, 'g1', 3, 'three by the goal', 'Rename the\nthird line');
    // The user commits other work on their branch while the goal ran.
    edit(path.join(root, 'shared.txt'), 15, 'fifteen by the user');
    git(root, 'commit', '-q', '-am', 'user work');
    const diff = await goalDiff(root, 'g1');
    expect(diff.stat).toContain('shared.txt | 2 +-');
    expect(diff.patch).toContain('+three by the goal');
    expect(diff.patch).not.toContain('fifteen');
    const applied = await applyGoal(root, undefined);
    expect(applied.kind).toBe('applied');
    const text = readFileSync(path.join(root, 'shared.txt'), 'utf8');
    expect(text).toContain('three by the goal');
    expect(text).toContain('fifteen by the user');
    expect(git(root, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('main');
    // The merge commit says what the goal was, not only its id.
    expect(git(root, 'log', '-1', '--format=%B').trim()).toBe(
      'taskweave: Rename the third line\n\nRename the third line\n\nApplies goal g1 (taskweave/g1).',
    );
    expect((await applyGoal(root, 'g1')).kind).toBe('already-applied');
  });

  it('reports a conflict with the user branch and changes nothing', async () => {
    const root = repository();
    await goalWithChange(root, 'g2', 4, 'four by the goal');
    edit(path.join(root, 'shared.txt'), 4, 'four by the user');
    git(root, 'commit', '-q', '-am', 'user work');
    const before = userGitState(root);
    const outcome = await applyGoal(root, 'g2');
    expect(outcome).toEqual({ kind: 'conflict', files: ['shared.txt'] });
    expect(userGitState(root)).toBe(before);
  });

  it('refuses rather than overwrite uncommitted changes, and prunes leftovers', async () => {
    const root = repository();
    await goalWithChange(root, 'g3', 6, 'six by the goal');
    edit(path.join(root, 'shared.txt'), 6, 'six, not committed');
    const outcome = await applyGoal(root, 'g3');
    expect(outcome.kind).toBe('refused');
    expect(readFileSync(path.join(root, 'shared.txt'), 'utf8')).toContain('six, not committed');
    const goal = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'g3', setup, ahead });
    await goal?.placeFor('b', { fresh: true });
    expect((await leftoverWorktrees(root)).map((entry) => entry.branch)).toEqual(['taskweave/g3.b']);
    const pruned = await pruneWorktrees(root);
    expect(pruned.removed).toHaveLength(1);
    expect(pruned.branches.sort()).toEqual(['taskweave/g3.a', 'taskweave/g3.b']);
    expect(await leftoverWorktrees(root)).toEqual([]);
    await expect(goalDiff(root, 'nope')).rejects.toThrow('No goal "nope"');
  });
});
