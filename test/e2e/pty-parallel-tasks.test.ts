import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const task = (id: string) => ({ id, title: `Task ${id}`, description: `Do ${id}`, depends_on: [] });
const plan = { name: 'plan_actions', args: { tasks: [task('lint'), task('test')] } };
const write = (file: string) => ({ name: 'write_file', args: { path: file, content: `${file}\n` } });
const done = (summary: string) => ({ name: 'task_completed', args: { summary } });

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-parallel-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

describe('two plan tasks running at once on an 80×24 terminal', () => {
  it('the spinner names both tasks instead of taking turns between them', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [plan] },
      { task: 'lint', latencyMs: 600, toolCalls: [write('lint.txt')] },
      { task: 'lint', latencyMs: 600, toolCalls: [done('linted')] },
      { task: 'test', latencyMs: 600, toolCalls: [write('test.txt')] },
      { task: 'test', latencyMs: 600, toolCalls: [done('tested')] },
      { text: 'Both done.' },
    ]);
    const run = PtyRun.start(
      ['run', '-y', '--approval', 'auto', '--model', model, '-C', workspace, 'lint and test'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    expect(await run.exited, run.text()).toBe(0);
    const frames = run
      .bytes()
      .split('\r\u001b[2K')
      .map((frame) => frame.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, ''))
      .filter((frame) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(frame));
    const both = frames.filter((frame) => /2 tasks running: (lint, test|test, lint)/.test(frame));
    expect(both.length, frames.join('\n')).toBeGreaterThan(0);
    // While both work, no frame shows one task's step alone.
    const first = frames.indexOf(both[0] as string);
    const last = frames.lastIndexOf(both[both.length - 1] as string);
    expect(frames.slice(first, last + 1).every((frame) => frame.includes('2 tasks running'))).toBe(true);
  });

  it("a task's approval prompt says which task asks; nothing is printed between its no and Why not?", async () => {
    const { workspace, model } = await setup([
      { toolCalls: [plan] },
      { task: 'lint', toolCalls: [{ name: 'run_command', args: { command: 'npm run lint' } }] },
      { task: 'lint', toolCalls: [done('lint left alone')] },
      { task: 'test', latencyMs: 200, toolCalls: [write('one.txt')] },
      { task: 'test', latencyMs: 200, toolCalls: [write('two.txt')] },
      { task: 'test', latencyMs: 200, toolCalls: [write('three.txt')] },
      { task: 'test', latencyMs: 200, toolCalls: [done('tested')] },
      { text: 'Both done.' },
    ]);
    const run = PtyRun.start(
      [
        'run',
        '-y',
        '--approval',
        'edits',
        '--sandbox',
        'off',
        '--model',
        model,
        '-C',
        workspace,
        'lint and test',
      ],
      { env: { NO_COLOR: '1' } },
    );
    await run.waitFor('[lint] Allow?');
    expect(run.text()).toContain('? [lint] run_command needs your approval:');
    // The other task writes its files meanwhile; its lines wait until the exchange ends.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    run.type('n\r');
    await run.waitFor('Why not?');
    run.type('not now\r');
    expect(await run.exited, run.text()).toBe(0);
    const text = run.text();
    expect(text).toMatch(/\(this session\): n\nWhy not\? /);
    expect(text).toContain('[test] → write_file("three.txt") ✓');
  });
});
