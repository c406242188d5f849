import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

describe('/export in the interactive session on an 80×24 terminal', () => {
  it('saves the session the goals ran in, as md by default and as html by the file name', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-export-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ text: 'Hello from **the model**.' }],
    });
    const session = PtyRun.start(['--model', `script:${script}`, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('/export\r');
    await session.waitFor('nothing to export');
    session.type('say hello\r');
    await session.waitFor('Hello from');
    session.type('/export\r');
    await session.waitFor('Exported this session as md to');
    session.type('/export page.html\r');
    await session.waitFor('Exported this session as html to');
    session.type('/quit\r');
    expect(await session.exited).toBe(0);

    const screen = session.text();
    const markdownFile = /Exported this session as md to\s+(\S+\.md)/.exec(screen)?.[1];
    expect(markdownFile).toMatch(new RegExp(`^${workspace}/taskweave-ses_[a-z0-9]+\\.md$`));
    const markdown = await readFile(markdownFile as string, 'utf8');
    expect(markdown).toMatch(/^# say hello\n/);
    expect(markdown).toContain('Hello from **the model**.');
    const html = await readFile(path.join(workspace, 'page.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('Hello from <strong>the model</strong>.');
  });
});
