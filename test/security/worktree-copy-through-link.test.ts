import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { setUpWorktree } from '../../src/work/worktree-setup.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, workspaceFolder } from '../work/work-fixture.js';

/*
 * Issue 39, item 1: a repository's own config names `worktree.copy: ["conf/x.env"]`; a task
 * commits `conf` as a link to a folder outside; when its pooled worktree is switched to the next
 * task, taskweave itself (unsandboxed) must not copy the user's file through that link.
 */
const outsides: string[] = [];
afterEach(() => {
  for (const folder of outsides.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function outsideFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-outside-'));
  outsides.push(folder);
  return folder;
}

/** A repository ignoring conf/x.env, with the user's own copy of it. */
function repository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, '.gitignore'), 'conf/x.env\n.taskweave/\n');
  writeFileSync(path.join(root, 'README.md'), 'project\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  mkdirSync(path.join(root, 'conf'));
  writeFileSync(path.join(root, 'conf', 'x.env'), 'PASSWORD=the-users\n');
  return root;
}

describe('worktree.copy and worktree.share never write through a link (issue 39, item 1)', () => {
  it('refuses the copy into a pooled worktree whose task committed the folder as a link outside, with a note', async () => {
    const root = repository();
    const outside = outsideFolder();
    const setup = { share: [], copy: ['conf/x.env'] };
    const goal = await GoalWorktrees.open({
      workspaceRoot: root,
      goalId: 'g1',
      setup,
      ahead: new WorktreesAhead(),
    });
    if (!goal) throw new Error('no goal');
    const a = await goal.placeFor('a', { fresh: true });
    expect(a.setup?.copied).toEqual(['conf/x.env']);
    rmSync(path.join(a.root, 'conf'), { recursive: true });
    symlinkSync(outside, path.join(a.root, 'conf'));
    await goal.commitStep('a', 'conf is a link now');
    expect(git(root, 'show', '--name-only', '--format=', 'taskweave/g1.a').trim()).toBe('conf');
    expect((await goal.mergeTask('a', 'A')).kind).toBe('merged');
    goal.releaseTask('a');

    const b = await goal.placeFor('b', { fresh: true });
    expect(b.reused).toBe(true);
    expect(lstatSync(path.join(b.root, 'conf')).isSymbolicLink()).toBe(true);
    expect(readdirSync(outside)).toEqual([]);
    expect(b.setup?.copied).toEqual([]);
    expect(b.setup?.refused.join('\n')).toMatch(/conf\/x\.env.*symbolic link/);
    await goal.end();
    expect(readdirSync(outside)).toEqual([]);
  });

  it('copies and shares nothing read through a link in the main checkout, nor writes through a nested link', async () => {
    const main = workspaceFolder('git');
    const task = workspaceFolder('plain');
    const outside = outsideFolder();
    writeFileSync(path.join(main, '.gitignore'), 'secrets/\nshared/\nlinked/\n');
    writeFileSync(path.join(outside, 'id_rsa'), 'PRIVATE\n');
    // The repository links `secrets` to a folder of the user's outside the checkout.
    symlinkSync(outside, path.join(main, 'secrets'));
    mkdirSync(path.join(main, 'shared', 'deep'), { recursive: true });
    writeFileSync(path.join(main, 'shared', 'deep', 'a.env'), 'A=1\n');
    mkdirSync(path.join(main, 'linked'));
    // In the task's tree, `shared/deep` is a link to the outside folder.
    mkdirSync(path.join(task, 'shared'));
    symlinkSync(outside, path.join(task, 'shared', 'deep'));
    const result = await setUpWorktree({
      mainRoot: main,
      taskRoot: task,
      share: ['linked', 'secrets'],
      copy: ['secrets/id_rsa', 'shared/deep/a.env'],
    });
    expect(result.copied).toEqual([]);
    expect(result.linked).toEqual(['linked']);
    expect(result.refused).toHaveLength(3);
    expect(existsSync(path.join(task, 'secrets'))).toBe(false);
    expect(readdirSync(outside)).toEqual(['id_rsa']);
  });
});
