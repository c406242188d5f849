import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** How many `sleep 347` processes run on the machine (a number no other test sleeps for). */
function sleeping(): number {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.trim() === 'sleep 347').length;
}

const SERVER = `node -e "let n = 0; console.log('listening on 4000'); setInterval(() => console.log('request ' + ++n), 200)"`;

describe('/shells on an 80×24 terminal', () => {
  it('lists the background commands with their last lines, stops one, and quitting stops the rest', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-shells-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-pty-shells-script-'), {
      turns: [
        { toolCalls: [{ name: 'run_command', args: { command: SERVER, background: true } }] },
        { toolCalls: [{ name: 'run_command', args: { command: 'sleep 347', background: true } }] },
        { text: 'The server runs in the background as bg1.' },
      ],
    });
    const session = PtyRun.start(['--approval', 'auto', '--model', `script:${script}`, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('/shells\r');
    await session.waitFor('No background commands in this session.');
    session.type('start the dev server\r');
    await session.waitFor('The server runs in the background as bg1.');
    await session.waitFor('›', { count: 3 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    session.type('/shells\r');
    await session.waitFor('bg2 running');
    const listing = session.screen().join('\n');
    expect(listing).toMatch(/bg1 running · node -e/);
    expect(listing).toMatch(/ {2}│ request \d+/);
    expect(listing).toMatch(/bg2 running · sleep 347/);
    session.type('/shells stop bg1\r');
    await session.waitFor('bg1 stopped.');
    session.type('/shells\r');
    await session.waitFor('bg1 stopped by the user');
    session.type('/shells stop bg9\r');
    await session.waitFor('There is no background command bg9 in this session.');
    expect(session.lines().every((row) => row.length <= 80)).toBe(true);
    process.stdout.write(`\n--- /shells (80×24) ---\n${session.screen().join('\n')}\n`);
    expect(sleeping()).toBe(1);
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    // The session ended: its background commands ended with it, and it says so.
    expect(sleeping()).toBe(0);
    expect(session.lines()).toContain('stopped background command bg2 (sleep 347)');
    expect(session.text()).not.toContain('stopped background command bg1');
  }, 120_000);
});
