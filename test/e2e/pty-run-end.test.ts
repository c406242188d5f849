import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-run-end-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

const task = (id: string, depends_on: string[] = []) => ({
  id,
  title: `Task ${id}`,
  description: `Do ${id}`,
  depends_on,
});

describe('how a run ends, on an 80×24 terminal', () => {
  it('a question nobody can answer shows once, with no "✓ nobody to answer" tool line', async () => {
    const question = 'Which database should I use?';
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'request_input', args: { question } }] },
    ]);
    const run = await PtyRun.run(
      ['run', '--non-interactive', '--model', model, '--cwd', workspace, 'store'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    expect(run.code, run.text).toBe(4);
    expect(run.text.split(question), run.text).toHaveLength(2);
    expect(run.text).toContain(`? ${question}`);
    expect(run.text).not.toMatch(/request_input\(|nobody to answer/);
    expect(run.text).toMatch(/^■ needs input · 1 step · /m);
  });

  it('a stop by the user is one line', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
    ]);
    const run = PtyRun.start(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'wait'], {
      env: { NO_COLOR: '1' },
    });
    await run.waitFor('run_command("sleep 30")');
    run.type('\u0003');
    expect(await run.exited, run.text()).toBe(3);
    const stops = run.lines().filter((line) => line.startsWith('■'));
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatch(/^■ stopped by the user · 1 step · \d+ in \/ \d+ out tokens$/);
    expect(run.text()).not.toContain('Stopped by the user.');
  });

  it('counts one task as one: "1 task waits on it", "(1 task)"', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'plan_actions', args: { tasks: [task('a'), task('b', ['a'])] } }] },
      { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the network is down' } }] },
    ]);
    const run = PtyRun.start(
      ['run', '--yes', '--approval', 'auto', '--model', model, '--cwd', workspace, 'plan'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    await run.waitFor('[a]bort?');
    expect(run.text()).toContain('Task a failed (1 task waits on it).');
    run.type('a\r');
    expect(await run.exited, run.text()).toBe(1);

    const single = await setup([{ toolCalls: [{ name: 'plan_actions', args: { tasks: [task('only')] } }] }]);
    const waiting = await PtyRun.run(
      ['run', '--non-interactive', '--model', single.model, '--cwd', single.workspace, 'plan one'],
      { env: { NO_COLOR: '1' } },
    );
    expect(waiting.code, waiting.text).toBe(4);
    expect(waiting.text).toMatch(/Approve the proposed plan plan_\w+ \(1 task\)\?/);
    const resume = await runCli(['resume', '--model', single.model, '--cwd', single.workspace]);
    expect(resume.stdout).toMatch(/waits for the approval of plan plan_\w+ \(1 task\)/);
    expect(waiting.text + resume.stdout).not.toContain('1 tasks');
  });
  it('a command the sandbox kept off the network says so to the user, not the model’s note', async () => {
    const lookup = `node -e "require('dns').lookup('example.com', (error) => { console.error(String(error)); process.exit(1); })"`;
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: lookup } }] },
      { text: 'There is no network here.' },
    ]);
    const run = await PtyRun.run(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'look up'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    expect(run.code, run.text).toBe(0);
    expect(run.text.replace(/\n/g, ' ')).toMatch(
      /✗ exit 1 · [\d.]+m?s · no network in the sandbox \(--network allows it\)/,
    );
    expect(run.text).toContain('│ Error: getaddrinfo');
    expect(run.text).not.toMatch(/Sandbox: the command ran|Tell the user|--- taskweave ---/);
  });
});
