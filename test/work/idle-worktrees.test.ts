import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneWorktrees } from '../../src/work/apply-goal.js';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { IDLE_LIMIT_MS } from '../../src/work/idle-worktrees.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, workspaceFolder, worktreesLeft } from './work-fixture.js';

/*
 * Issue 40, item 2: a pool of worktrees per repository, kept between goals. A goal's worktrees
 * go idle when it ends (clean, detached, the shared links kept), up to the concurrency; the next
 * goal switches them instead of checking every file out again.
 */
const setup = { share: ['node_modules'], copy: [] };
const ahead = new WorktreesAhead();

function repository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n.taskweave/\n');
  writeFileSync(path.join(root, 'shared.txt'), 'one\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  mkdirSync(path.join(root, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(path.join(root, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
  return root;
}

const idleFolder = (root: string) => path.join(root, '.git', 'taskweave', 'worktrees', '.idle');
const idle = (root: string) => (existsSync(idleFolder(root)) ? readdirSync(idleFolder(root)) : []);

/** A goal whose `tasks` each write a file (left uncommitted in one: thrown away when it goes idle), merged, then ended. */
async function goal(root: string, goalId: string, tasks: string[], idleBound: number) {
  const opened = await GoalWorktrees.open({ workspaceRoot: root, goalId, setup, ahead, idleBound });
  if (!opened) throw new Error('no goal');
  const places = [];
  for (const task of tasks) places.push(await opened.placeFor(task, { fresh: true }));
  for (const [index, place] of places.entries()) {
    writeFileSync(path.join(place.root, `${place.taskId}.txt`), `${goalId} ${place.taskId}\n`);
    await opened.commitStep(place.taskId, 'step');
    await opened.mergeTask(place.taskId, place.taskId);
    if (index === 0) writeFileSync(path.join(place.root, 'scratch.txt'), 'not committed\n');
    opened.releaseTask(place.taskId);
  }
  await opened.end();
  return places;
}

describe('the worktrees of a repository, kept between goals (issue 40, item 2)', () => {
  it('parks a goal’s worktrees clean and detached, up to the bound; the next goal switches them', async () => {
    const root = repository();
    await goal(root, 'g1', ['a', 'b', 'c'], 2);
    expect(idle(root)).toHaveLength(2);
    expect(worktreesLeft(root)).toEqual([]);
    for (const name of idle(root)) {
      const folder = path.join(idleFolder(root), name);
      // Clean: nothing git would commit (the node_modules link is taskweave's, kept).
      expect(git(folder, 'status', '--porcelain', '--', '.', ':!node_modules')).toBe('');
      expect(existsSync(path.join(folder, 'scratch.txt'))).toBe(false);
      expect(lstatSync(path.join(folder, 'node_modules')).isSymbolicLink()).toBe(true);
    }

    const [first, second, third] = await (async () => {
      const next = await GoalWorktrees.open({
        workspaceRoot: root,
        goalId: 'g2',
        setup,
        ahead,
        idleBound: 2,
      });
      if (!next) throw new Error('no goal');
      const places = [
        await next.placeFor('x', { fresh: true }),
        await next.placeFor('y', { fresh: true }),
        await next.placeFor('z', { fresh: true }),
      ];
      expect(readFileSync(path.join(places[0]?.root ?? '', 'shared.txt'), 'utf8')).toBe('one\n');
      expect(existsSync(path.join(places[0]?.root ?? '', 'a.txt'))).toBe(false);
      expect(git(places[1]?.folder ?? '', 'symbolic-ref', '--short', 'HEAD').trim()).toBe('taskweave/g2.y');
      await next.end();
      return places;
    })();
    // Two taken from the idle ones (switched), the third made.
    expect([first?.reused, second?.reused, third?.reused]).toEqual([true, true, false]);
    expect(idle(root)).toHaveLength(2);
  });

  it('removes an idle worktree unused past the limit instead of taking it; worktrees --prune removes the idle ones', async () => {
    const root = repository();
    await goal(root, 'g1', ['a'], 1);
    const [name] = idle(root);
    const old = new Date(Date.now() - IDLE_LIMIT_MS - 60_000);
    utimesSync(path.join(idleFolder(root), name ?? ''), old, old);
    const next = await GoalWorktrees.open({ workspaceRoot: root, goalId: 'g2', setup, ahead, idleBound: 1 });
    const place = await next?.placeFor('x', { fresh: true });
    expect(place?.reused).toBe(false);
    expect(idle(root)).toEqual([]);
    await next?.end();
    expect(idle(root)).toHaveLength(1);
    const pruned = await pruneWorktrees(root);
    expect(pruned.removed).toHaveLength(1);
    expect(idle(root)).toEqual([]);
    expect(git(root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });
  it('a goal made ahead takes a different idle worktree for each of its first slots, from one listing', async () => {
    const root = repository();
    await goal(root, 'g1', ['a', 'b'], 2);
    expect(idle(root)).toHaveLength(2);
    const trace = path.join(workspaceFolder('plain'), 'git-trace.log');
    const before = process.env.GIT_TRACE;
    process.env.GIT_TRACE = trace;
    try {
      const warm = GoalWorktrees.prewarm({ workspaceRoot: root, goalId: 'g2', count: 2, ahead });
      await warm.ready;
    } finally {
      if (before === undefined) delete process.env.GIT_TRACE;
      else process.env.GIT_TRACE = before;
    }
    const commands = readFileSync(trace, 'utf8')
      .split('\n')
      .flatMap((line) => /trace: built-in: git (worktree \w+)/.exec(line)?.[1] ?? []);
    // Two moves that both succeed (no slot tries the worktree the other took), nothing checked
    // out again, the worktrees listed once, no unlock of worktrees that are not locked.
    expect(commands.sort()).toEqual(['worktree list', 'worktree move', 'worktree move']);
    expect(idle(root)).toEqual([]);
    const goalFolder = path.join(root, '.git', 'taskweave', 'worktrees', 'g2');
    expect(readdirSync(goalFolder).sort()).toEqual(['slot-1', 'slot-2']);
    const head = git(root, 'rev-parse', 'HEAD').trim();
    for (const slot of ['slot-1', 'slot-2'])
      expect(git(path.join(goalFolder, slot), 'rev-parse', 'HEAD').trim()).toBe(head);
  });
  it('the first tasks of a goal made ahead only switch their slots (no listing, no clean); a slot used by a task is cleaned for the next', async () => {
    const root = repository();
    await goal(root, 'g1', ['a'], 1);
    writeFileSync(path.join(root, 'uncommitted.txt'), 'on disk only\n');
    const warm = GoalWorktrees.prewarm({ workspaceRoot: root, goalId: 'g2', count: 1, ahead });
    await warm.ready;
    const trace = path.join(workspaceFolder('plain'), 'git-trace.log');
    const before = process.env.GIT_TRACE;
    process.env.GIT_TRACE = trace;
    let opened: GoalWorktrees | undefined;
    let first: Awaited<ReturnType<GoalWorktrees['placeFor']>> | undefined;
    try {
      opened = await GoalWorktrees.open({
        workspaceRoot: root,
        goalId: 'g2',
        setup,
        ahead,
        idleBound: 1,
        includeUncommitted: true,
      });
      first = await opened?.placeFor('x', { fresh: true });
    } finally {
      if (before === undefined) delete process.env.GIT_TRACE;
      else process.env.GIT_TRACE = before;
    }
    if (!opened || !first) throw new Error('no goal');
    const commands = readFileSync(trace, 'utf8')
      .split('\n')
      .flatMap((line) => /trace: built-in: git ([\w-]+( list)?)/.exec(line)?.[1] ?? []);
    expect(commands).not.toContain('worktree list');
    expect(commands).not.toContain('clean');
    expect(commands.filter((command) => command === 'checkout')).toHaveLength(1);
    // Once the goal branch is made, nothing asks git where it is: the first task starts at it.
    const afterBranch = commands.slice(commands.lastIndexOf('update-ref'));
    expect(
      afterBranch.filter((command) => ['rev-parse', 'worktree list', 'clean'].includes(command)),
    ).toEqual([]);
    // The task's branch starts at the goal's base (the files on disk), said without asking git again.
    expect(first.commit).toBe(git(root, 'rev-parse', 'refs/heads/taskweave/g2').trim());
    expect(readFileSync(path.join(first.root, 'uncommitted.txt'), 'utf8')).toBe('on disk only\n');
    expect(git(first.folder, 'status', '--porcelain', '--', '.', ':!node_modules')).toBe('');

    // What the first task left that git does not track is gone when the slot is switched to the next.
    writeFileSync(path.join(first.root, 'x.txt'), 'x\n');
    await opened.commitStep('x', 'step');
    await opened.mergeTask('x', 'x');
    mkdirSync(path.join(first.root, 'node_modules', 'built'), { recursive: true });
    writeFileSync(path.join(first.root, 'stray.log'), 'left behind\n');
    opened.releaseTask('x');
    const second = await opened.placeFor('y', { fresh: true });
    expect(second.folder).toBe(first.folder);
    expect(existsSync(path.join(second.root, 'stray.log'))).toBe(false);
    expect(readFileSync(path.join(second.root, 'x.txt'), 'utf8')).toBe('x\n');
    await opened.end();
  });
});
