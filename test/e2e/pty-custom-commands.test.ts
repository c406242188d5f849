import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

describe('custom commands in the interactive session on an 80×24 terminal', () => {
  it('lists them in /help, runs /name args as the goal of its file, and refuses a looser approval', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-cmds-');
    const configHome = await tempWorkspaceRoot('taskweave-cmds-home-');
    const project = path.join(workspace, '.taskweave', 'commands');
    const user = path.join(configHome, 'taskweave', 'commands');
    await mkdir(project, { recursive: true });
    await mkdir(user, { recursive: true });
    await writeFile(
      path.join(project, 'explain.md'),
      '---\ndescription: Explain a file in plain words\n---\nExplain $1 to a $2.\n',
    );
    await writeFile(path.join(project, 'yolo.md'), '---\napproval: auto\n---\nChange everything.\n');
    await writeFile(path.join(project, 'broken.md'), '---\nmodel: gpt\n---\nx\n');
    await writeFile(path.join(user, 'help.md'), 'mine\n');
    await writeFile(
      path.join(user, 'standup.md'),
      '---\ndescription: What changed since yesterday\n---\nGo.\n',
    );
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ when: 'Explain src/parser.ts to a newcomer.', text: 'It turns text into a tree.' }],
    });
    const session = PtyRun.start(['--approval', 'ask', '--model', `script:${script}`, '-C', workspace], {
      env: { NO_COLOR: '1', XDG_CONFIG_HOME: configHome },
    });
    await session.waitFor('›');
    session.type('/help\r');
    await session.waitFor('Custom commands');
    await session.waitFor('/standup');
    const text = session.text();
    expect(text).toMatch(/\/explain\s+Explain a file in plain words/);
    expect(text).toMatch(/\/standup\s+What changed since yesterday/);
    expect(text).toMatch(/broken\.md: line 2: unknown\s+key "model"/);
    expect(text).toMatch(/\/help is a\s+built-in command, which wins/);
    session.type('/yolo\r');
    await session.waitFor('cannot loosen safety');
    session.type('/explain src/parser.ts newcomer\r');
    await session.waitFor('It turns text into a tree.');
    await session.waitFor('✓ completed');
    // Nothing the terminal had to fold: every row fits in 80 columns.
    expect(session.lines().every((row) => row.length <= 80)).toBe(true);
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
  }, 60_000);
});
