import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const delegate = (job: string, id: string) => ({ name: 'delegate', id, args: { agent: 'explore', job } });
const read = (file: string) => ({ name: 'read_file', args: { path: file } });

describe('two subagents running at once on an 80×24 terminal', () => {
  it('one updating line names both children, and each closes with its answer', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-subagents-');
    await writeFile(path.join(workspace, 'alpha.ts'), 'export const alpha = 1;\n');
    await writeFile(path.join(workspace, 'beta.ts'), 'export const beta = 2;\n');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        {
          text: 'I will ask two explorers.',
          toolCalls: [delegate('Find alpha', 'c1'), delegate('Find beta', 'c2')],
        },
        { agent: 'explore', when: 'Find alpha', latencyMs: 500, toolCalls: [read('alpha.ts')] },
        { agent: 'explore', when: 'Find beta', latencyMs: 700, toolCalls: [read('beta.ts')] },
        { agent: 'explore', when: 'Find alpha', latencyMs: 500, text: 'alpha is 1, in alpha.ts line 1' },
        { agent: 'explore', when: 'Find beta', latencyMs: 900, text: 'beta is 2, in beta.ts line 1' },
        { text: 'alpha is 1 and beta is 2.' },
      ],
    });
    const run = PtyRun.start(
      [
        'run',
        '--approval',
        'auto',
        '--model',
        `script:${script}`,
        '-C',
        workspace,
        'where are alpha and beta',
      ],
      { env: { NO_COLOR: '1' } },
    );
    expect(await run.exited, run.text()).toBe(0);
    const frames = run
      .bytes()
      .split('\r\u001b[2K')
      .map((frame) => frame.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, ''))
      .filter((frame) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(frame));
    const both = frames.filter((frame) =>
      /2 subagents: explore \(step \d(, read_file)?\) · explore \(step \d/.test(frame),
    );
    expect(both.length, frames.join('\n')).toBeGreaterThan(0);
    // The line updates: a later frame shows a step the first one had not reached.
    expect(
      both.some((frame) => frame.includes('read_file')),
      both.join('\n'),
    ).toBe(true);
    for (const frame of frames) expect([...frame].length).toBeLessThanOrEqual(80);
    const screen = run.text();
    expect(screen).toMatch(/✓ explore · 2 steps · \d+ tokens: alpha is 1, in alpha\.ts line 1/);
    expect(screen).toMatch(/✓ explore · 2 steps · \d+ tokens: beta is 2, in beta\.ts line 1/);
    // The children's own tool calls are not printed without --verbose.
    expect(screen).not.toContain('read_file(');
    expect(screen).toContain('I will ask two explorers.');
    expect(screen).toContain('alpha is 1 and beta is 2.');
    if (process.env.SHOW_SCREEN) console.log(screen);
  });

  it('--verbose shows the children’s calls indented under their name', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-subagents-');
    await writeFile(path.join(workspace, 'alpha.ts'), 'export const alpha = 1;\n');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        { toolCalls: [delegate('Find alpha', 'c1')] },
        { agent: 'explore', toolCalls: [read('alpha.ts')] },
        { agent: 'explore', text: 'alpha is 1' },
        { text: 'done' },
      ],
    });
    const run = PtyRun.start(
      [
        'run',
        '--verbose',
        '--approval',
        'auto',
        '--model',
        `script:${script}`,
        '-C',
        workspace,
        'find alpha',
      ],
      { env: { NO_COLOR: '1' } },
    );
    expect(await run.exited, run.text()).toBe(0);
    expect(run.text()).toMatch(/\n {2}explore › → read_file ✓/);
  });
});
