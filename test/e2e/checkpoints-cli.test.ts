import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH, runCli, writeScript } from '../helpers/cli.js';
import { git, workspaceFolder } from '../work/work-fixture.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function repository(files: Record<string, string>): string {
  const root = workspaceFolder('git');
  folders.push(root);
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(root, file), content);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  return root;
}

/** A folder outside the repository for the script model's file. */
function scriptFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-checkpoints-script-'));
  folders.push(folder);
  return folder;
}

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

describe('taskweave checkpoints, undo, redo and rewind', () => {
  it('lists the steps that changed files, undoes the last, rewinds files and conversation, and redoes', async () => {
    const root = repository({ 'a.txt': 'one\n', 'b.txt': 'keep\n', '.gitignore': 'node_modules/\n' });
    const statusBefore = git(root, 'status', '--porcelain=v2', '--branch');
    const script = await writeScript(scriptFolder(), {
      latencyMs: 0,
      turns: [
        { toolCalls: [{ name: 'write_file', args: { path: 'new.txt', content: 'hello\n' } }] },
        { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
        {
          toolCalls: [
            { name: 'edit_file', args: { path: 'a.txt', edits: [{ find: 'one', replace: 'two' }] } },
          ],
        },
        {
          toolCalls: [
            {
              name: 'run_command',
              args: {
                command:
                  'echo made > made.txt && rm b.txt && mkdir -p node_modules && echo x > node_modules/x.js',
              },
            },
          ],
        },
        { text: 'All done.' },
      ],
    });
    const run = await runCli([
      'run',
      'change some files',
      '--model',
      `script:${script}`,
      '--approval',
      'auto',
      '-C',
      root,
    ]);
    expect(run.code, run.stderr).toBe(0);

    const listed = await runCli(['checkpoints', '-C', root]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/3 checkpoints/);
    expect(listed.stdout).toMatch(/#1 {2}write_file {2}\+1 ~0 -0/);
    expect(listed.stdout).toMatch(/#2 {2}edit_file {2}\+0 ~1 -0/);
    expect(listed.stdout).toMatch(/#3 {2}run_command {2}\+1 ~0 -1/);
    expect(listed.stdout).not.toMatch(/node_modules/);

    const undo = await runCli(['undo', '-C', root]);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(/Undid checkpoint #3: 2 files put back/);
    expect(read(root, 'b.txt')).toBe('keep\n');
    expect(() => read(root, 'made.txt')).toThrow();
    expect(read(root, 'a.txt')).toBe('two\n');

    const messagesBefore = JSON.parse(
      (await runCli(['sessions', 'show', 'last', '--json', '-C', root])).stdout,
    ).messages.length;
    const rewind = await runCli(['rewind', '--to', '#1', '-C', root]);
    expect(rewind.code, rewind.stderr).toBe(0);
    expect(rewind.stdout).toMatch(/Rewound to before #1: 2 files put back/);
    expect(rewind.stdout).toMatch(/The conversation goes back to before #1/);
    expect(read(root, 'a.txt')).toBe('one\n');
    expect(() => read(root, 'new.txt')).toThrow();
    expect(git(root, 'status', '--porcelain=v2', '--branch')).toBe(statusBefore);
    const messagesAfter = JSON.parse(
      (await runCli(['sessions', 'show', 'last', '--json', '-C', root])).stdout,
    ).messages.length;
    expect(messagesAfter).toBeLessThan(messagesBefore);

    const redo = await runCli(['redo', '-C', root]);
    expect(redo.code, redo.stderr).toBe(0);
    expect(read(root, 'a.txt')).toBe('two\n');
    expect(read(root, 'new.txt')).toBe('hello\n');
    const events = JSON.parse(
      (await runCli(['sessions', 'show', 'last', '--json', '--events', '-C', root])).stdout,
    ).events;
    expect(
      events
        .filter((event: { update_type?: string }) => event.update_type === 'checkpoint_restored')
        .map((event: { kind: string }) => event.kind),
    ).toEqual(['undo', 'rewind', 'redo']);

    const nothing = await runCli(['rewind', '--to', '9', '-C', root]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/There is no checkpoint 9 .* it has 3/);
  }, 120_000);

  it('two parallel plan tasks: rewinding one task puts back only its files; the other task’s stay', async () => {
    const root = repository({ 'shared.txt': 'base\n' });
    const script = await writeScript(scriptFolder(), {
      latencyMs: 0,
      turns: [
        {
          toolCalls: [
            {
              name: 'plan_actions',
              args: {
                tasks: [
                  { id: 'api', title: 'API', description: 'write the api' },
                  { id: 'docs', title: 'Docs', description: 'write the docs' },
                ],
              },
            },
          ],
        },
        {
          task: 'api',
          toolCalls: [{ name: 'write_file', args: { path: 'api.ts', content: 'export {};\n' } }],
        },
        { task: 'docs', toolCalls: [{ name: 'write_file', args: { path: 'docs.md', content: '# Docs\n' } }] },
        {
          task: 'api',
          toolCalls: [
            { name: 'run_command', args: { command: 'echo api >> shared.txt && echo gen > api.gen.ts' } },
          ],
        },
        { task: 'docs', toolCalls: [{ name: 'task_completed', args: { summary: 'docs written' } }] },
        { task: 'api', toolCalls: [{ name: 'task_completed', args: { summary: 'api written' } }] },
        { text: 'Both done.' },
      ],
    });
    const run = await runCli([
      'run',
      'api and docs',
      '-y',
      '--model',
      `script:${script}`,
      '--approval',
      'auto',
      // One checkout: in worktrees (auto's choice here) a task's checkpoints are commits on its branch.
      '--isolation',
      'shared',
      '-C',
      root,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const listed = await runCli(['checkpoints', '--json', '-C', root]);
    const tasks = JSON.parse(listed.stdout).checkpoints.map(
      (checkpoint: { task_id: string }) => checkpoint.task_id,
    );
    expect(new Set(tasks)).toEqual(new Set(['api', 'docs']));
    const rewind = await runCli(['rewind', '--task', 'api', '-C', root]);
    expect(rewind.code, rewind.stderr).toBe(0);
    expect(rewind.stdout).toMatch(/Plan tasks' own conversations are not rewound \(api\)/);
    expect(read(root, 'shared.txt')).toBe('base\n');
    expect(() => read(root, 'api.ts')).toThrow();
    expect(() => read(root, 'api.gen.ts')).toThrow();
    expect(read(root, 'docs.md')).toBe('# Docs\n');
  }, 120_000);

  it('a kill -9 during a rewind leaves every file before or after, and rewind again completes it', async () => {
    const count = 1500;
    const names = Array.from({ length: count }, (_, index) => `f${String(index).padStart(4, '0')}.txt`);
    const root = repository(Object.fromEntries(names.map((name, index) => [name, `old ${index}\n`])));
    const script = await writeScript(scriptFolder(), {
      latencyMs: 0,
      turns: [
        {
          toolCalls: [
            { name: 'run_command', args: { command: `for f in f*.txt; do echo "new $f" > "$f"; done` } },
          ],
        },
        { text: 'Rewritten.' },
      ],
    });
    const run = await runCli([
      'run',
      'rewrite them',
      '--model',
      `script:${script}`,
      '--approval',
      'auto',
      '-C',
      root,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const state = (name: string, index: number) => {
      const content = read(root, name);
      if (content === `old ${index}\n`) return 'before';
      if (content === `new ${name}\n`) return 'after';
      return `broken: ${JSON.stringify(content)}`;
    };

    let killedMidway = false;
    for (let attempt = 0; attempt < 5 && !killedMidway; attempt += 1) {
      const child = spawn(process.execPath, [CLI_PATH, 'rewind', '--to', '1', '-C', root], {
        stdio: 'ignore',
      });
      // Killed as soon as the first file is back: the rest are still being written.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (read(root, names[0] as string) === 'old 0\n') {
            child.kill('SIGKILL');
            clearInterval(poll);
          }
        }, 1);
        child.on('close', () => {
          clearInterval(poll);
          resolve();
        });
      });
      const states = names.map(state);
      expect(states.filter((value) => value.startsWith('broken'))).toEqual([]);
      killedMidway = states.includes('before') && states.includes('after');
      if (!killedMidway) {
        // The whole rewind ran before the kill: put it back for another try.
        await runCli(['redo', '-C', root]);
      }
    }
    expect(killedMidway).toBe(true);
    const again = await runCli(['rewind', '--to', '1', '-C', root]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/An interrupted restore was completed first/);
    expect(names.map(state).every((value) => value === 'before')).toBe(true);
    expect((await readdir(root)).filter((entry) => entry.startsWith('.taskweave-restore-'))).toEqual([]);
    expect(git(root, 'status', '--porcelain')).toBe('');
  }, 180_000);
});
