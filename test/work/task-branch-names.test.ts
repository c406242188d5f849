import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskBranch } from '../../src/work/goal-branch.js';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, workspaceFolder } from './work-fixture.js';

/** A repository with one commit. */
function repository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, 'README.md'), 'project\n');
  writeFileSync(path.join(root, '.gitignore'), '.taskweave/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  return root;
}

const ahead = new WorktreesAhead();

describe('task ids that a lossy ref encoding would merge', () => {
  it.each([
    ['设置', '测试'],
    ['a b', 'a-b'],
  ])(
    '%s and %s: two tasks, two branches, two worktrees, both tasks’ work kept',
    async (first, second) => {
      const root = repository();
      const goalId = `plan_${Buffer.from(first).toString('hex')}`;
      const goal = await GoalWorktrees.open({
        workspaceRoot: root,
        goalId,
        setup: { share: [], copy: [] },
        ahead,
      });
      if (!goal) throw new Error('no goal');
      // Both start together, as parallel tasks of one plan do.
      const [one, two] = await Promise.all([
        goal.placeFor(first, { fresh: true }),
        goal.placeFor(second, { fresh: true }),
      ]);
      if (!one || !two) throw new Error('no place');
      expect(one.folder).not.toBe(two.folder);
      writeFileSync(path.join(one.root, 'one.txt'), 'by the first task\n');
      writeFileSync(path.join(two.root, 'two.txt'), 'by the second task\n');
      expect(await goal.commitStep(first, 'step 1')).toMatch(/^[0-9a-f]{40}$/);
      expect(await goal.commitStep(second, 'step 1')).toMatch(/^[0-9a-f]{40}$/);
      expect((await goal.mergeTask(first, 'first')).kind).toBe('merged');
      expect((await goal.mergeTask(second, 'second')).kind).toBe('merged');
      const goalBranch = `taskweave/${goalId}`;
      expect(git(root, 'show', `${goalBranch}:one.txt`)).toBe('by the first task\n');
      expect(git(root, 'show', `${goalBranch}:two.txt`)).toBe('by the second task\n');
      expect(taskBranch(goalId, first)).not.toBe(taskBranch(goalId, second));
      await goal.end();
    },
    60_000,
  );
});
