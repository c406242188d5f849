import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

function git(cwd: string, ...args: string[]) {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

describe('/checkpoints, /rewind, /undo and /redo on an 80×24 terminal', () => {
  it('lists the steps that changed files, rewinds to one (code only), undoes and redoes', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-rewind-');
    git(workspace, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(workspace, 'config.json'), '{ "port": 80 }\n');
    git(workspace, 'add', '-A');
    git(workspace, '-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-qm', 'first');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-pty-rewind-script-'), {
      turns: [
        {
          toolCalls: [
            { name: 'write_file', args: { path: 'src/server.ts', content: 'export const port = 8080;\n' } },
          ],
        },
        { toolCalls: [{ name: 'write_file', args: { path: 'config.json', content: '{ "port": 8080 }\n' } }] },
        { toolCalls: [{ name: 'run_command', args: { command: 'echo built > build.log' } }] },
        { text: 'The port is now 8080.' },
      ],
    });
    const session = PtyRun.start(['--approval', 'auto', '--model', `script:${script}`, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('/undo\r');
    await session.waitFor('No goal has run in this session yet');
    session.type('move the server to port 8080\r');
    await session.waitFor('The port is now 8080.');
    await session.waitFor('›', { count: 3 });
    session.type('/rewind\r');
    await session.waitFor('/rewind <n> goes back');
    const list = session.screen().join('\n');
    expect(list).toMatch(/#1 {2}write_file {2}\+1 ~0 -0/);
    expect(list).toMatch(/#2 {2}write_file {2}\+0 ~1 -0/);
    expect(list).toMatch(/#3 {2}run_command {2}\+1 ~0 -0/);
    expect(list).toContain('      + build.log');
    // One number per checkpoint, the one /rewind takes: no step number beside it to be taken for it.
    expect(list).not.toMatch(/#\d+ {2}step \d/);
    session.type('/rewind 2 code\r');
    await session.waitFor('Rewound to before #2: 2 files put back.');
    expect(readFileSync(path.join(workspace, 'config.json'), 'utf8')).toBe('{ "port": 80 }\n');
    expect(existsSync(path.join(workspace, 'build.log'))).toBe(false);
    expect(existsSync(path.join(workspace, 'src/server.ts'))).toBe(true);
    session.type('/redo\r');
    await session.waitFor('Redid checkpoint #2, #3: 2 files put back.');
    expect(readFileSync(path.join(workspace, 'config.json'), 'utf8')).toBe('{ "port": 8080 }\n');
    session.type('/undo\r');
    await session.waitFor('Undid checkpoint #3: 1 file put back.');
    await session.waitFor('/redo puts it back.');
    const result = session.screen();
    // Nothing of it folds at 80 columns.
    expect(session.lines().every((row) => row.length <= 80)).toBe(true);
    process.stdout.write(`\n--- the terminal after /undo (80×24) ---\n${result.join('\n')}\n`);
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
  }, 120_000);
});
