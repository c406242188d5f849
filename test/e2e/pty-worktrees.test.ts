import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const FRESH_TASK = '(no tool calls yet for this task)';
const LINES = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n');
const sed = (line: number, text: string) => ({
  name: 'run_command',
  args: { command: `sed -i '${line}s/.*/${text}/' shared.txt` },
});
const done = (summary: string) => ({ name: 'task_completed', args: { summary } });

const CHOICES = [
  { key: 'r', name: 'retry', expected: ['line 2 by a', 'line 7 by b'] },
  { key: 'e', name: 'resolve in its worktree', expected: ['line 2 by a and b'] },
];

describe('a 4-task plan in git worktrees on an 80×24 terminal', () => {
  for (const choice of CHOICES)
    it(`shows the goal branch, each worktree and merge, a conflict asked as a failure decision (${choice.name}), and where the work went`, async () => {
      const workspace = await tempWorkspaceRoot('taskweave-pty-worktrees-');
      writeFileSync(path.join(workspace, 'shared.txt'), `${LINES}\n`);
      writeFileSync(path.join(workspace, '.gitignore'), '.taskweave/\n');
      const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' });
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-qm', 'first');
      const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'a', title: 'Line 2', description: 'line 2' },
                    { id: 'b', title: 'Line 2 too', description: 'line 2' },
                    { id: 'c', title: 'c.txt', description: 'c.txt' },
                    { id: 'd', title: 'd.txt', description: 'last', depends_on: ['a', 'b', 'c'] },
                  ],
                },
              },
            ],
          },
          { task: 'a', when: FRESH_TASK, toolCalls: [sed(2, 'line 2 by a')] },
          { task: 'a', toolCalls: [done('a done')] },
          { task: 'b', when: FRESH_TASK, toolCalls: [sed(2, 'line 2 by b')] },
          { task: 'b', latencyMs: 1500, toolCalls: [done('b done')] },
          // Resolve: b goes on in its worktree, the goal branch merged in (markers in shared.txt).
          {
            task: 'b',
            when: 'Resolve the merge conflict',
            toolCalls: [
              {
                name: 'run_command',
                args: { command: "sed -i -e '/^<<<<<<< /,/^>>>>>>> /c\\line 2 by a and b' shared.txt" },
              },
              done('b resolved'),
            ],
          },
          // Retry: b runs again from the goal branch as it is now.
          { task: 'b', when: FRESH_TASK, toolCalls: [sed(7, 'line 7 by b')] },
          { task: 'b', toolCalls: [done('b redone')] },
          {
            task: 'c',
            when: FRESH_TASK,
            toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c\n' } }],
          },
          { task: 'c', toolCalls: [done('c done')] },
          {
            task: 'd',
            when: FRESH_TASK,
            toolCalls: [{ name: 'write_file', args: { path: 'd.txt', content: 'd\n' } }],
          },
          { task: 'd', toolCalls: [done('d done')] },
          { text: 'All four merged.' },
        ],
      });
      const run = PtyRun.start(
        [
          'run',
          '-y',
          '--approval',
          'auto',
          '--apply',
          '--model',
          `script:${script}`,
          '-C',
          workspace,
          'four tasks',
        ],
        { env: { NO_COLOR: '1' } },
      );
      await run.waitFor('[r]etry, r[e]solve');
      const asked = run.lines().join(' ');
      expect(asked).toMatch(/⎇ Tasks run in git worktrees on taskweave\/plan_\w+/);
      expect(asked).toMatch(
        /⎇ \[b\] merge conflict: taskweave\/plan_\w+\.b and the goal branch both changed/,
      );
      expect(asked).toMatch(/shared\.txt/);
      run.type(`${choice.key}\r`);
      expect(await run.exited, run.text()).toBe(0);
      const lines = run.lines();
      const all = lines.join(' ');
      for (const task of ['a', 'b', 'c', 'd'])
        expect(all).toMatch(new RegExp(`⎇ \\[${task}\\] merged taskweave/`));
      // The end of the run says where the work went: landed in the checkout, uncommitted.
      expect(all).toMatch(/✓ completed .*⎇ applied: 3 files \(\+\d+ −\d+\)/);
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: workspace, encoding: 'utf8' })).toBe(
        ' M shared.txt\n?? c.txt\n?? d.txt\n',
      );
      // No row was folded by the terminal: each fits in 80 columns.
      expect(lines.every((line) => line.length <= 80)).toBe(true);
      const text = readFileSync(path.join(workspace, 'shared.txt'), 'utf8');
      for (const expected of choice.expected) expect(text).toContain(expected);
      expect(text).not.toContain('<<<<<<<');
      writeFileSync(
        path.join(workspace, '..', `${path.basename(workspace)}-${choice.key}-screen.txt`),
        run.screen().join('\n'),
      );
    }, 90_000);
});

describe('the end of a worktree run whose change the user edited meanwhile, at 80×24', () => {
  it('says the goal is on its branch, not applied, naming the file and taskweave apply', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-held-');
    writeFileSync(path.join(workspace, 'shared.txt'), `${LINES}\n`);
    writeFileSync(path.join(workspace, '.gitignore'), '.taskweave/\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-qm', 'first');
    // Task a's command stands for the user editing shared.txt in the checkout meanwhile.
    const userEdit = `sed -i '9s/.*/line 9 by the user/' ${path.join(workspace, 'shared.txt')}`;
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        {
          toolCalls: [
            {
              name: 'plan_actions',
              args: {
                tasks: [
                  { id: 'a', title: 'Line 2', description: 'line 2' },
                  { id: 'b', title: 'b.txt', description: 'b.txt' },
                ],
              },
            },
          ],
        },
        {
          task: 'a',
          when: FRESH_TASK,
          toolCalls: [
            {
              name: 'run_command',
              args: { command: `sed -i '2s/.*/line 2 by a/' shared.txt && ${userEdit}` },
            },
          ],
        },
        { task: 'a', toolCalls: [done('a done')] },
        {
          task: 'b',
          when: FRESH_TASK,
          toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b\n' } }],
        },
        { task: 'b', toolCalls: [done('b done')] },
        { text: 'Both merged.' },
      ],
    });
    const run = PtyRun.start(
      [
        'run',
        '-y',
        '--approval',
        'auto',
        '--sandbox',
        'off',
        '--model',
        `script:${script}`,
        '-C',
        workspace,
        'two tasks',
      ],
      { env: { NO_COLOR: '1' } },
    );
    expect(await run.exited, run.text()).toBe(0);
    const screen = run.screen();
    const all = screen.join(' ').replace(/\s+/g, ' ');
    expect(all).toMatch(
      /✓ completed .*⎇ on taskweave\/(plan_\w+), not applied: you changed shared\.txt meanwhile \(nothing was touched; taskweave diff plan_\w+ shows the goal's change\), taskweave apply plan_\w+/,
    );
    expect(run.lines().every((line) => line.length <= 80)).toBe(true);
    expect(readFileSync(path.join(workspace, 'shared.txt'), 'utf8')).toContain('line 9 by the user');
    expect(readFileSync(path.join(workspace, 'shared.txt'), 'utf8')).not.toContain('line 2 by a');
    writeFileSync(
      path.join(workspace, '..', `${path.basename(workspace)}-held-screen.txt`),
      screen.join('\n'),
    );
  }, 90_000);
});
