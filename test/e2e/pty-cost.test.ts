import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const DOLLARS = String.raw`\$0\.\d{2,4}`;

describe('cost and budget on an 80×24 terminal', () => {
  it('each run ends with its cost, the budget stops the second goal at a step boundary, /cost adds the session up', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-cost-');
    const scripts = await tempWorkspaceRoot('taskweave-pty-cost-script-');
    // The second goal's turns first: each call's prompt holds the session's history.
    const script = await writeScript(scripts, {
      turns: [
        { when: 'three files', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
        { when: 'three files', toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b\n' } }] },
        { when: 'three files', toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c\n' } }] },
        { when: 'three files', text: 'Wrote three files.' },
        { when: 'hello', text: 'Hello there.' },
      ],
    });
    const model = `script:${script}`;
    // A fixed price ($10 / $40 per million tokens): a call of this script costs about $0.025.
    await mkdir(path.join(workspace, '.taskweave'));
    await writeFile(
      path.join(workspace, '.taskweave', 'config.json'),
      JSON.stringify({ prices: { [model]: { input: 10, output: 40 } }, budget: { session: 0.06 } }),
    );
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1', HOME: scripts, XDG_CONFIG_HOME: path.join(scripts, '.config') },
    });
    await session.waitFor('›');
    session.type('say hello\r');
    await session.waitFor('✓ completed');
    expect(session.text()).toMatch(
      new RegExp(`^✓ completed · 1 step · \\d+ in / \\d+ out tokens · ${DOLLARS}$`, 'm'),
    );

    session.type('write three files\r');
    await session.waitFor('■ stopped: budget exceeded');
    // The closing line is whole once the prompt is back (the third: at start, after each goal).
    await session.waitFor('›', { count: 3 });
    const lines = session.lines();
    const exceeded = lines.findIndex((line) => line.startsWith('■ budget exceeded'));
    // The reason on one row of the 80, then the closing line.
    expect(lines.slice(exceeded, exceeded + 2).join('\n')).toMatch(
      new RegExp(
        `^■ budget exceeded: ${DOLLARS} spent of the session's \\$0\\.06; the run stops here\\n■ stopped: budget exceeded · 2 steps · \\d+ in / \\d+ out tokens · ${DOLLARS}$`,
      ),
    );
    expect(session.text()).toContain('write_file("b.txt")');
    expect(session.text()).not.toContain('write_file("c.txt")');

    session.type('/cost\r');
    await session.waitFor('Budget:');
    const costAt = session.lines().findLastIndex((line) => line.includes('/cost'));
    const shown = session.lines().slice(costAt + 1, costAt + 6);
    expect(shown[0]).toMatch(
      new RegExp(`^This session: 2 runs, [\\d,]+ in / [\\d,]+ out tokens, ${DOLLARS}\\.$`),
    );
    expect(shown[1]).toMatch(new RegExp(`^Today in this workspace: 2 runs, ${DOLLARS}\\.$`));
    expect(shown[2]).toMatch(new RegExp(`^Budget: ${DOLLARS} of \\$0\\.06 spent in this session\\.$`));
    // The model's price, wrapped between words.
    expect(shown.slice(3).join(' ')).toMatch(/: \$10 in \/ \$40 out per million tokens\.$/);
    // No row was folded by the terminal: every line fits in 80 columns.
    for (const line of session.lines()) expect(line.length).toBeLessThanOrEqual(80);
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
  });
});
