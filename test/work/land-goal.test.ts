import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goalDiff } from '../../src/work/apply-goal.js';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { goalChange, landGoal } from '../../src/work/land-goal.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, userGitState, workspaceFolder } from './work-fixture.js';

const setup = { share: [], copy: [] };
const ahead = new WorktreesAhead();

/** A repository with two committed files; `draft.txt` changed and `todo.txt` added on disk, not committed. */
function dirtyRepository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, '.gitignore'), '.taskweave/\nlocal.json\n');
  writeFileSync(path.join(root, 'draft.txt'), 'committed draft\n');
  writeFileSync(path.join(root, 'notes.txt'), 'one\ntwo\n');
  writeFileSync(path.join(root, 'old.txt'), 'to be removed\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  writeFileSync(path.join(root, 'draft.txt'), 'the user draft, not committed\n');
  writeFileSync(path.join(root, 'todo.txt'), 'untracked todo\n');
  return root;
}

/** A goal whose one task read the files as they are on disk and changed them. */
async function goalOnDisk(root: string, goalId: string): Promise<{ seen: string; untracked: string }> {
  const goal = await GoalWorktrees.open({
    workspaceRoot: root,
    goalId,
    includeUncommitted: true,
    setup,
    ahead,
  });
  if (!goal) throw new Error('no goal');
  const place = await goal.placeFor('a', { fresh: true });
  const seen = readFileSync(path.join(place.root, 'draft.txt'), 'utf8');
  const untracked = readFileSync(path.join(place.root, 'todo.txt'), 'utf8');
  writeFileSync(path.join(place.root, 'notes.txt'), 'one\ntwo\nthree by the goal\n');
  writeFileSync(path.join(place.root, 'added.txt'), 'a file of the goal\n');
  unlinkSync(path.join(place.root, 'old.txt'));
  await goal.commitStep('a', 'step');
  expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
  await goal.end();
  return { seen, untracked };
}

describe('a completed goal lands in the working tree (issue 40, item 1)', () => {
  it('starts from the files on disk and lands uncommitted, keeping what the user edited meanwhile', async () => {
    const root = dirtyRepository();
    const { seen, untracked } = await goalOnDisk(root, 'g1');
    expect(seen).toBe('the user draft, not committed\n');
    expect(untracked).toBe('untracked todo\n');
    // Meanwhile the user edits a file the goal did not change.
    writeFileSync(path.join(root, 'draft.txt'), 'the user draft, edited again meanwhile\n');
    const head = git(root, 'rev-parse', 'HEAD');
    const index = git(root, 'ls-files', '-s');

    const outcome = await landGoal(root, 'g1');
    expect(outcome).toMatchObject({ kind: 'applied', added: 2, removed: 1 });
    if (outcome.kind !== 'applied') throw new Error('held');
    expect([...outcome.files].sort()).toEqual(['added.txt', 'notes.txt', 'old.txt']);
    expect(readFileSync(path.join(root, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree by the goal\n');
    expect(readFileSync(path.join(root, 'added.txt'), 'utf8')).toBe('a file of the goal\n');
    expect(existsSync(path.join(root, 'old.txt'))).toBe(false);
    expect(readFileSync(path.join(root, 'draft.txt'), 'utf8')).toBe(
      'the user draft, edited again meanwhile\n',
    );
    expect(readFileSync(path.join(root, 'todo.txt'), 'utf8')).toBe('untracked todo\n');
    // Uncommitted: HEAD and the index as they were.
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(root, 'ls-files', '-s')).toBe(index);
    // The diff is the goal's own change, not the user's uncommitted one.
    const diff = await goalDiff(root, 'g1');
    expect(diff.stat).toContain('notes.txt');
    expect(diff.stat).not.toContain('draft.txt');
  });

  it('holds the whole change back, touching nothing, when the user changed a file the goal changed', async () => {
    const root = dirtyRepository();
    await goalOnDisk(root, 'g2');
    writeFileSync(path.join(root, 'notes.txt'), 'one\ntwo, the user\n');
    const before = userGitState(root);
    const files = () =>
      ['notes.txt', 'added.txt', 'old.txt'].map((file) => existsSync(path.join(root, file)));

    const outcome = await landGoal(root, 'g2');
    expect(outcome).toEqual({ kind: 'held', branch: 'taskweave/g2', held: ['notes.txt'] });
    expect(readFileSync(path.join(root, 'notes.txt'), 'utf8')).toBe('one\ntwo, the user\n');
    expect(files()).toEqual([true, false, true]);
    expect(userGitState(root)).toBe(before);
  });

  it('holds back a file the user removed, and an ignored file of the user where the goal adds one', async () => {
    const root = dirtyRepository();
    const goal = await GoalWorktrees.open({
      workspaceRoot: root,
      goalId: 'g3',
      includeUncommitted: true,
      setup,
      ahead,
    });
    if (!goal) throw new Error('no goal');
    const place = await goal.placeFor('a', { fresh: true });
    writeFileSync(path.join(place.root, '.gitignore'), '.taskweave/\n');
    writeFileSync(path.join(place.root, 'local.json'), '{ "from": "the goal" }\n');
    writeFileSync(path.join(place.root, 'notes.txt'), 'changed by the goal\n');
    await goal.commitStep('a', 'step');
    await goal.mergeTask('a', 'A');
    await goal.end();
    writeFileSync(path.join(root, 'local.json'), '{ "password": "the user\'s own" }\n');
    unlinkSync(path.join(root, 'notes.txt'));

    const outcome = await landGoal(root, 'g3');
    expect(outcome).toEqual({ kind: 'held', branch: 'taskweave/g3', held: ['local.json', 'notes.txt'] });
    expect(readFileSync(path.join(root, 'local.json'), 'utf8')).toBe('{ "password": "the user\'s own" }\n');
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('.taskweave/\nlocal.json\n');
  });

  it('says what a goal kept on its branch changed, against the files it started from', async () => {
    const root = dirtyRepository();
    await goalOnDisk(root, 'g4');
    expect(await goalChange(root, 'g4')).toEqual({
      branch: 'taskweave/g4',
      files: ['added.txt', 'notes.txt', 'old.txt'],
      added: 2,
      removed: 1,
    });
  });
});
