import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyGoal } from '../../src/work/apply-goal.js';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, userGitState, workspaceFolder } from '../work/work-fixture.js';

/*
 * Issue 39, item 5: git overwrites an ignored file when a merge brings a tracked one of that
 * name. A task that stops ignoring `config/local.json` and writes it must not destroy the user's
 * own, never committed copy at apply.
 */
describe('apply and the files of the user tree git does not track (issue 39, item 5)', () => {
  it('refuses to overwrite an ignored local file and names it; applies once the user moved it away', async () => {
    const root = workspaceFolder('git');
    writeFileSync(path.join(root, '.gitignore'), 'config/local.json\n.taskweave/\n');
    writeFileSync(path.join(root, 'README.md'), 'project\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    mkdirSync(path.join(root, 'config'));
    const local = path.join(root, 'config', 'local.json');
    writeFileSync(local, '{ "password": "the user\'s own" }\n');

    const goal = await GoalWorktrees.open({
      workspaceRoot: root,
      goalId: 'g39',
      setup: { share: [], copy: [] },
      ahead: new WorktreesAhead(),
    });
    if (!goal) throw new Error('no goal');
    const place = await goal.placeFor('a', { fresh: true });
    writeFileSync(path.join(place.root, '.gitignore'), '.taskweave/\n');
    mkdirSync(path.join(place.root, 'config'), { recursive: true });
    writeFileSync(path.join(place.root, 'config', 'local.json'), '{ "from": "the task" }\n');
    await goal.commitStep('a', 'track config/local.json');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    await goal.end();

    const before = userGitState(root);
    const outcome = await applyGoal(root, 'g39');
    expect(outcome.kind).toBe('refused');
    if (outcome.kind !== 'refused') throw new Error('applied');
    expect(outcome.message).toContain('config/local.json');
    expect(readFileSync(local, 'utf8')).toBe('{ "password": "the user\'s own" }\n');
    expect(userGitState(root)).toBe(before);

    renameSync(local, path.join(root, 'local.json.mine'));
    const applied = await applyGoal(root, 'g39');
    expect(applied.kind).toBe('applied');
    expect(readFileSync(local, 'utf8')).toBe('{ "from": "the task" }\n');
  });

  it('refuses to overwrite an untracked file the goal adds, naming it, as well as a changed tracked one', async () => {
    const root = workspaceFolder('git');
    writeFileSync(path.join(root, 'shared.txt'), 'one\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    const goal = await GoalWorktrees.open({
      workspaceRoot: root,
      goalId: 'g40',
      setup: { share: [], copy: [] },
      ahead: new WorktreesAhead(),
    });
    if (!goal) throw new Error('no goal');
    const place = await goal.placeFor('a', { fresh: true });
    writeFileSync(path.join(place.root, 'shared.txt'), 'two\n');
    writeFileSync(path.join(place.root, 'notes.txt'), 'by the task\n');
    await goal.commitStep('a', 'a');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    await goal.end();

    writeFileSync(path.join(root, 'notes.txt'), "the user's notes\n");
    writeFileSync(path.join(root, 'shared.txt'), 'one, changed\n');
    const outcome = await applyGoal(root, 'g40');
    expect(outcome.kind).toBe('refused');
    if (outcome.kind !== 'refused') throw new Error('applied');
    expect(outcome.message).toContain('notes.txt');
    expect(outcome.message).toContain('shared.txt');
    expect(readFileSync(path.join(root, 'notes.txt'), 'utf8')).toBe("the user's notes\n");
    expect(readFileSync(path.join(root, 'shared.txt'), 'utf8')).toBe('one, changed\n');
  });
});
