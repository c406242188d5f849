import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { applyGoal, fetchGoalBranches } from '../../src/work/apply-goal.js';
import { GoalRemote } from '../../src/work/goal-remote.js';
import { GoalWorktrees } from '../../src/work/goal-worktrees.js';
import { CLONE_REMOTE, cloneFolderOf, ensureClone, normalRemote } from '../../src/work/repo-clone.js';
import { WorktreesAhead } from '../../src/work/worktrees-ahead.js';
import { git, workspaceFolder } from './work-fixture.js';

const setup = { share: [], copy: [] };
const GOAL = 'plan_remote';

/** A bare remote holding one commit (readme.txt), as a team's repository would be. */
function bareRemote(): string {
  const source = workspaceFolder('git');
  writeFileSync(path.join(source, 'readme.txt'), 'the project\n');
  git(source, 'add', '-A');
  git(source, 'commit', '-q', '-m', 'first');
  const bare = `${workspaceFolder('plain')}/remote.git`;
  git(source, 'clone', '-q', '--bare', source, bare);
  return bare;
}

/** One machine: its own clones folder, its clone of the remote, the goal opened there. */
async function machine(remote: string, beforeGoalPush?: () => Promise<void>) {
  const clones = workspaceFolder('plain');
  const folder = await ensureClone({ remote, clones });
  git(folder, 'config', 'user.email', 'worker@example.com');
  git(folder, 'config', 'user.name', 'Worker');
  const goal = await GoalWorktrees.open({
    workspaceRoot: folder,
    goalId: GOAL,
    setup,
    ahead: new WorktreesAhead(),
    remote: { name: CLONE_REMOTE },
    beforeGoalPush,
  });
  if (!goal) throw new Error('no goal');
  return { folder, goal };
}

/** A task's work in its worktree: one file, committed as a step. */
async function work(goal: GoalWorktrees, task: string, options: { fresh: boolean } = { fresh: true }) {
  const place = await goal.placeFor(task, options);
  writeFileSync(path.join(place.root, `${task}.txt`), `${task} was here\n`);
  await goal.commitStep(task, `step of ${task}`);
  return place;
}

/** The files of a branch of the bare remote. */
function filesOn(remote: string, branch: string): string[] {
  return git(remote, 'ls-tree', '--name-only', `refs/heads/${branch}`).trim().split('\n').sort();
}

function mergesOn(remote: string, branch: string): string[] {
  return git(remote, 'rev-list', '--merges', `refs/heads/${branch}`).trim().split('\n').filter(Boolean);
}

describe('goal branches through a git remote (--repo)', () => {
  it('keeps a clone per machine under the clones folder, named by the remote without credentials', async () => {
    const remote = bareRemote();
    const clones = workspaceFolder('plain');
    const folder = await ensureClone({ remote, clones });
    expect(folder).toBe(cloneFolderOf(remote, clones));
    expect(readFileSync(path.join(folder, 'readme.txt'), 'utf8')).toBe('the project\n');
    // A second time only fetches.
    expect(await ensureClone({ remote: `${remote}/`, clones })).toBe(folder);
    expect(normalRemote('https://bob:s3cret@example.com/team/app.git')).toBe('https://example.com/team/app');
  });

  it("pushes a task's step commits at once, so another machine continues the task from them", async () => {
    const remote = bareRemote();
    const a = await machine(remote);
    // The goal branch is on the remote as soon as the goal starts.
    expect(git(remote, 'rev-parse', `refs/heads/taskweave/${GOAL}`).trim()).toBe(a.goal.base);
    await work(a.goal, 't1');
    expect(filesOn(remote, `taskweave/${GOAL}.t1`)).toEqual(['readme.txt', 't1.txt']);
    // Machine a dies here; machine b continues t1 (not fresh) from its last pushed commit.
    const b = await machine(remote);
    const place = await b.goal.placeFor('t1', { fresh: false });
    expect(readFileSync(path.join(place.root, 't1.txt'), 'utf8')).toBe('t1 was here\n');
    expect((await b.goal.mergeTask('t1', 'one')).kind).toBe('merged');
    expect(filesOn(remote, `taskweave/${GOAL}`)).toEqual(['readme.txt', 't1.txt']);
  });

  it("fetches the goal branch before a task starts: it starts with another machine's merged work", async () => {
    const remote = bareRemote();
    const a = await machine(remote);
    const b = await machine(remote);
    await work(b.goal, 't1');
    await b.goal.mergeTask('t1', 'one');
    const place = await work(a.goal, 't2');
    expect(existsSync(path.join(place.root, 't1.txt'))).toBe(true);
    await a.goal.mergeTask('t2', 'two');
    expect(filesOn(remote, `taskweave/${GOAL}`)).toEqual(['readme.txt', 't1.txt', 't2.txt']);
    expect(mergesOn(remote, `taskweave/${GOAL}`)).toHaveLength(2);
  });

  it("fetches once for tasks that start together; a task that asks later fetches again (another machine's later merge in it)", async () => {
    const remote = bareRemote();
    const a = await machine(remote);
    const b = await machine(remote);
    await work(b.goal, 't1');
    await b.goal.mergeTask('t1', 'one');
    const fetches = vi.spyOn(GoalRemote.prototype, 'fetchGoal');
    // Machine a's fetches (b's own go through the same method).
    const fetchesOfA = () =>
      fetches.mock.contexts.filter((remote) => (remote as GoalRemote).top === a.goal.top).length;
    try {
      const [two, three] = await Promise.all([
        a.goal.placeFor('t2', { fresh: true }),
        a.goal.placeFor('t3', { fresh: true }),
      ]);
      expect(fetchesOfA()).toBe(1);
      for (const place of [two, three]) expect(existsSync(path.join(place.root, 't1.txt'))).toBe(true);
      await work(b.goal, 't4');
      await b.goal.mergeTask('t4', 'four');
      const later = await a.goal.placeFor('t5', { fresh: true });
      expect(fetchesOfA()).toBe(2);
      expect(existsSync(path.join(later.root, 't4.txt'))).toBe(true);
    } finally {
      fetches.mockRestore();
    }
  });

  it('pushes the merged goal branch at the end of a task: the remote holds the merge', async () => {
    const remote = bareRemote();
    const a = await machine(remote);
    await work(a.goal, 't1');
    const merged = await a.goal.mergeTask('t1', 'one');
    if (merged.kind === 'conflict') throw new Error('conflict');
    expect(git(remote, 'rev-parse', `refs/heads/taskweave/${GOAL}`).trim()).toBe(merged.commit);
    expect(git(remote, 'rev-parse', `refs/heads/taskweave/${GOAL}.t1`).trim()).toBe(
      git(a.folder, 'rev-parse', `refs/heads/taskweave/${GOAL}.t1`).trim(),
    );
  });

  it('moves the goal branch by compare and swap: a merge that lost the race fetches and merges again', async () => {
    const remote = bareRemote();
    let b: Awaited<ReturnType<typeof machine>> | undefined;
    let raced = false;
    // Machine b's whole merge lands between machine a's fetch of the goal branch and a's push.
    const a = await machine(remote, async () => {
      if (raced || !b) return;
      raced = true;
      expect((await b.goal.mergeTask('t2', 'two')).kind).toBe('merged');
    });
    b = await machine(remote);
    await work(a.goal, 't1');
    await work(b.goal, 't2');
    expect((await a.goal.mergeTask('t1', 'one')).kind).toBe('merged');
    expect(raced).toBe(true);
    expect(a.goal.lostRaces).toBe(1);
    // Neither merge is lost, neither is doubled.
    expect(filesOn(remote, `taskweave/${GOAL}`)).toEqual(['readme.txt', 't1.txt', 't2.txt']);
    expect(mergesOn(remote, `taskweave/${GOAL}`)).toHaveLength(2);
  });

  it('loses no merge when four machines merge into one goal branch at once', async () => {
    const remote = bareRemote();
    const machines = [];
    for (let index = 0; index < 4; index += 1) machines.push(await machine(remote));
    await Promise.all(machines.map((m, index) => work(m.goal, `t${index}`)));
    const outcomes = await Promise.all(
      machines.map((m, index) => m.goal.mergeTask(`t${index}`, `task ${index}`)),
    );
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['merged', 'merged', 'merged', 'merged']);
    expect(filesOn(remote, `taskweave/${GOAL}`)).toEqual([
      'readme.txt',
      't0.txt',
      't1.txt',
      't2.txt',
      't3.txt',
    ]);
    expect(mergesOn(remote, `taskweave/${GOAL}`)).toHaveLength(4);
  });

  it('does not merge twice a task the remote goal branch holds already (merged before a worker died)', async () => {
    const remote = bareRemote();
    const a = await machine(remote);
    await work(a.goal, 't1');
    await a.goal.mergeTask('t1', 'one');
    const b = await machine(remote);
    await b.goal.placeFor('t1', { fresh: false });
    expect((await b.goal.mergeTask('t1', 'one')).kind).toBe('already-merged');
    expect(mergesOn(remote, `taskweave/${GOAL}`)).toHaveLength(1);
  });

  it('a worker that no longer holds the goal pushes nothing; the one that took it over wins the task branch', async () => {
    const remote = bareRemote();
    const stalled = await machine(remote);
    let holds = true;
    stalled.goal.claim = { stillHolds: async () => holds };
    await work(stalled.goal, 't1');
    // Another worker takes the goal over (the stalled one's lease expired) and continues t1.
    const taker = await machine(remote);
    const place = await taker.goal.placeFor('t1', { fresh: false });
    // The stalled worker wakes up and pushes one more step before it notices.
    const stalledPlace = await stalled.goal.placeFor('t1', { fresh: false });
    writeFileSync(path.join(stalledPlace.root, 'late.txt'), 'late\n');
    await stalled.goal.commitStep('t1', 'late step');
    expect(filesOn(remote, `taskweave/${GOAL}.t1`)).toContain('late.txt');
    // Now the store says it lost the goal: it merges and pushes nothing.
    holds = false;
    await expect(stalled.goal.mergeTask('t1', 'one')).rejects.toThrow(/no longer holds the goal/);
    expect(mergesOn(remote, `taskweave/${GOAL}`)).toHaveLength(0);
    // The taker's branch is the task's: pushed over the stalled worker's step, merged once.
    writeFileSync(path.join(place.root, 't1.txt'), 't1 by the taker\n');
    await taker.goal.commitStep('t1', 'taker step');
    expect((await taker.goal.mergeTask('t1', 'one')).kind).toBe('merged');
    expect(filesOn(remote, `taskweave/${GOAL}`)).toEqual(['readme.txt', 't1.txt']);
    expect(git(remote, 'show', `refs/heads/taskweave/${GOAL}:t1.txt`)).toBe('t1 by the taker\n');
    expect(mergesOn(remote, `taskweave/${GOAL}`)).toHaveLength(1);
  });

  it("apply fetches the goal branch from the remote into the user's checkout", async () => {
    const remote = bareRemote();
    const a = await machine(remote);
    await work(a.goal, 't1');
    await a.goal.mergeTask('t1', 'one');
    const user = workspaceFolder('plain');
    git(user, 'clone', '-q', remote, 'checkout');
    const checkout = path.join(user, 'checkout');
    git(checkout, 'config', 'user.email', 'user@example.com');
    git(checkout, 'config', 'user.name', 'User');
    expect(await fetchGoalBranches(checkout, remote)).toEqual([GOAL]);
    expect((await applyGoal(checkout, GOAL)).kind).toBe('applied');
    expect(readFileSync(path.join(checkout, 't1.txt'), 'utf8')).toBe('t1 was here\n');
  });
});
