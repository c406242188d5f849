import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

let workspace: string;
let script: string;

beforeAll(async () => {
  workspace = await tempWorkspaceRoot('taskweave-typos-');
  // A model that answers: a typo sent to it as a goal would open a session.
  script = await writeScript(await tempWorkspaceRoot('taskweave-typos-script-'), {
    turns: [{ text: 'Never reached.' }],
  });
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function sessionCount(): Promise<number> {
  const listed = await runCli(['sessions', 'list', '--json', '-C', workspace]);
  return listed.stdout.trim() === '' ? 0 : (JSON.parse(listed.stdout) as unknown[]).length;
}

describe('a mistyped command', () => {
  it('on an 80×24 terminal asks "did you mean" and runs the command on yes, with no session opened', async () => {
    const run = PtyRun.start(['sesions', 'list', '-C', workspace], { env: { NO_COLOR: '1' } });
    await run.waitFor('did you mean `taskweave sessions`? [y/N]');
    run.type('y\r');
    expect(await run.exited).toBe(0);
    expect(run.text()).toContain('No sessions yet.');
    expect(await sessionCount()).toBe(0);
  });

  it('without a terminal prints the suggestion and exits with the usage code (2), sending nothing', async () => {
    const run = await runCli(['sesions', 'list', '-C', workspace, '--model', `script:${script}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'error: unknown command \'sesions\' (did you mean `taskweave sessions`?); to give it to the agent as a goal: taskweave run "sesions list"',
    );
    expect(await sessionCount()).toBe(0);
  });

  it('`tasks lst` names the unknown subcommand and the one it is near', async () => {
    const run = await runCli(['tasks', 'lst', '-C', workspace]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "error: unknown command 'lst' for 'taskweave tasks' (did you mean `taskweave tasks list`?)",
    );
    expect(run.stderr).not.toContain('too many arguments');
  });
});
