import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { git, workspaceFolder } from '../work/work-fixture.js';

/*
 * Issue 39, item 1, through the CLI: the repository's own config names worktree.copy; task a
 * commits `conf` as a link to a folder outside; task b, after it, gets a worktree with that link.
 * Nothing is written outside, and the run says why conf/x.env was not copied.
 */
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const made = mkdtempSync(path.join(tmpdir(), prefix));
  folders.push(made);
  return made;
}

describe('worktree.copy through a committed link, run by the CLI (issue 39, item 1)', () => {
  it('writes nothing outside and tells the user the copy was refused', async () => {
    const root = workspaceFolder('git');
    folders.push(root);
    const outside = folder('taskweave-outside-');
    writeFileSync(path.join(root, '.gitignore'), '.taskweave/\nconf/x.env\n');
    writeFileSync(path.join(root, 'README.md'), 'project\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'first');
    mkdirSync(path.join(root, 'conf'));
    writeFileSync(path.join(root, 'conf', 'x.env'), 'PASSWORD=the-users\n');
    mkdirSync(path.join(root, '.taskweave'));
    writeFileSync(
      path.join(root, '.taskweave', 'config.json'),
      JSON.stringify({ worktree: { copy: ['conf/x.env'] } }),
    );
    const script = await writeScript(folder('taskweave-script-'), {
      latencyMs: 0,
      turns: [
        {
          toolCalls: [
            {
              name: 'plan_actions',
              args: {
                tasks: [
                  { id: 'a', title: 'Task a', description: 'link conf' },
                  { id: 'c', title: 'Task c', description: 'write c' },
                  { id: 'b', title: 'Task b', description: 'after a', depends_on: ['a'] },
                ],
              },
            },
          ],
        },
        {
          task: 'a',
          toolCalls: [{ name: 'run_command', args: { command: `rm -rf conf && ln -s ${outside} conf` } }],
        },
        { task: 'c', toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c\n' } }] },
        { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
        { task: 'c', toolCalls: [{ name: 'task_completed', args: { summary: 'c done' } }] },
        { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }] },
        { toolCalls: [{ name: 'final_answer', args: { answer: 'done' } }] },
      ],
    });
    const result = await runCli([
      'run',
      'three tasks',
      '-y',
      '--json',
      '--approval',
      'auto',
      '--model',
      `script:${script}`,
      '-C',
      root,
    ]);
    expect(result.code, result.stderr + result.stdout.slice(-3000)).toBe(0);
    const events = parseJsonLines(result.stdout) as (ServerEvent & Record<string, unknown>)[];
    const notes = events
      .filter((event) => event.type === 'agent_update' && event.update_type === 'agent_note')
      .map((event) => ({ task: event.task_id, content: String(event.content) }));
    expect(notes).toContainEqual({
      task: 'b',
      content: expect.stringMatching(/worktree\.copy conf\/x\.env was not copied: conf is a symbolic link/),
    });
    expect(readdirSync(outside)).toEqual([]);
  }, 120_000);
});
