import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const command = (line: string) => ({ name: 'run_command', args: { command: line } });
const write = (file: string) => ({ name: 'write_file', args: { path: file, content: `${file}\n` } });

/** Where the screens a user sees are kept (plain text), for the note. */
const CAPTURES = path.resolve('test-results/pty');

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-pty-approval-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

async function keep(name: string, screen: string[]): Promise<void> {
  await mkdir(CAPTURES, { recursive: true });
  await writeFile(path.join(CAPTURES, `${name}.txt`), `${screen.join('\n')}\n`);
}

describe('approvals in the interactive session on an 80×24 terminal', () => {
  it('/approval shows the mode and switches it; the header and the prompt show it; the next call follows it', async () => {
    const { workspace, model } = await setup([
      { when: 'first goal', toolCalls: [write('asked.txt')] },
      { when: 'first goal', text: 'First goal done.' },
      { when: 'second goal', toolCalls: [write('unasked.txt')] },
      { when: 'second goal', text: 'Second goal done.' },
    ]);
    const session = PtyRun.start(
      ['--approval', 'ask', '--sandbox', 'off', '--model', model, '-C', workspace],
      {
        env: { NO_COLOR: '1' },
      },
    );
    await session.waitFor('ask › ');
    expect(session.text()).toContain('approval ask · sandbox off · /approval switches');
    session.type('/approval\r');
    await session.waitFor('approval ask · sandbox off (choices: ask, edits, auto, plan-only)');
    session.type('first goal\r');
    await session.waitFor('Allow?');
    session.type('y\r');
    await session.waitFor('First goal done.');
    await session.waitFor('ask › ', { count: 3 });
    session.type('/approval yolo\r');
    await session.waitFor('"yolo" is not an approval mode: ask, edits, auto, plan-only.');
    session.type('/approval edits\r');
    await session.waitFor('approval: edits — file changes run, commands and MCP tools are asked');
    await session.waitFor('edits › ');
    session.type('second goal\r');
    await session.waitFor('Second goal done.');
    await session.waitFor('edits › ', { count: 2 });
    // The run's own header says the mode it started with.
    expect(session.text()).toContain('approval edits · sandbox off');
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect(session.text().match(/Allow\? /g)).toHaveLength(1);
    expect(existsSync(path.join(workspace, 'asked.txt'))).toBe(true);
    expect(existsSync(path.join(workspace, 'unasked.txt'))).toBe(true);
  });

  it('what a user sees when a command is asked, allowed (yes, always) and denied with a reason', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [command('npm run lint')] },
      { toolCalls: [command('npm test')] },
      { toolCalls: [command('npm test -- --verbose')] },
      { toolCalls: [command('rm -rf build')] },
      { when: 'the build folder is mine', text: 'Lint and tests pass; build/ is left alone, as you asked.' },
    ]);
    await mkdir(path.join(workspace, 'build'));
    await writeFile(
      path.join(workspace, 'package.json'),
      '{ "scripts": { "lint": "echo lint clean", "test": "echo 3 tests passed" } }\n',
    );
    const session = PtyRun.start(['--approval', 'ask', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('ask › ');
    session.type('lint and test, then clean up\r');
    await session.waitFor('Allow?');
    await keep('approval-asked', session.screen());
    session.type('y\r');
    await session.waitFor('Allow?', { count: 2 });
    await keep('approval-allowed-yes', session.screen());
    session.type('a\r');
    // `npm test -- --verbose` is an `npm test` too: "always" covers it, nothing is asked.
    await session.waitFor('Allow?', { count: 3 });
    session.type('n\r');
    await session.waitFor('Why not?');
    session.type('the build folder is mine\r');
    await session.waitFor('build/ is left alone');
    await session.waitFor('ask › ', { count: 2 });
    await keep('approval-denied', session.screen());
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    const text = session.text();
    expect(text).toContain('? run_command needs your approval:\n    npm run lint');
    // The question wraps at a word boundary, not mid-word where the terminal would cut it.
    expect(text).toContain('[a] Always allow `npm test …` (this\nsession): a');
    expect(text).toMatch(/run_command\("npm test -- --verbose"\) ✓/);
    expect(text).toMatch(/run_command\("rm -rf build"\) ✗ denied: the build folder is mine/);
    expect(text.match(/Allow\? /g)).toHaveLength(3);
    expect(existsSync(path.join(workspace, 'build'))).toBe(true);
  });
});
