import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const folders: string[] = [];
async function folder(prefix: string): Promise<string> {
  const made = await tempWorkspaceRoot(prefix);
  folders.push(made);
  return made;
}
afterAll(async () => {
  for (const made of folders) await rm(made, { recursive: true, force: true });
});

describe('messages on an 80×24 terminal', () => {
  it('a cut command keeps its closing quote: run_command("echo …")', async () => {
    const workspace = await folder('taskweave-messages-');
    const command = `echo ${'second line of a long command that goes past the edge of the terminal '.repeat(2)}`;
    const script = await writeScript(await folder('taskweave-messages-script-'), {
      turns: [{ toolCalls: [{ name: 'run_command', args: { command } }] }, { text: 'Done.' }],
    });
    const run = await PtyRun.run(
      ['run', 'print it', '-C', workspace, '--model', `script:${script}`, '--approval', 'auto'],
      { env: { NO_COLOR: '1' } },
    );
    expect(run.code).toBe(0);
    const call = run.lines.find((line) => line.includes('run_command('));
    expect(call).toMatch(/run_command\("echo second line of [^"]*…"\)/);
  });

  it('Ctrl-C of an idle work --watch says it stops now, not at a step boundary', async () => {
    const workspace = await folder('taskweave-messages-watch-');
    const script = await writeScript(await folder('taskweave-messages-watch-script-'), {
      turns: [{ text: 'Never reached.' }],
    });
    const worker = PtyRun.start(['work', '--watch', '-C', workspace, '--model', `script:${script}`], {
      env: { NO_COLOR: '1' },
    });
    await worker.waitFor('waiting for tasks');
    worker.type('\u0003');
    expect(await worker.exited).toBe(0);
    expect(worker.text()).toContain('stopping now: no task is running');
    expect(worker.text()).not.toContain('step boundary');
  });

  it('work --watch starts by saying what it watches: the queue, the store and the workspace', async () => {
    const workspace = await folder('taskweave-messages-start-');
    const script = await writeScript(await folder('taskweave-messages-start-script-'), {
      turns: [{ text: 'Never reached.' }],
    });
    const worker = PtyRun.start(['work', '--watch', '-C', workspace, '--model', `script:${script}`], {
      env: { NO_COLOR: '1' },
    });
    await worker.waitFor('waiting for tasks');
    worker.type('\u0003');
    expect(await worker.exited).toBe(0);
    const lines = worker.lines();
    const start = lines.findIndex((line) => line.startsWith('Watching queue "default"'));
    expect(start).toBeGreaterThanOrEqual(0);
    expect(lines.slice(start, start + 3).join('\n')).toBe(
      `Watching queue "default" (Ctrl-C ends)\n  store      ${workspace}/.taskweave/taskweave.db\n  workspace  ${workspace}`,
    );
  });

  it('an undo that put nothing back does not offer redo', async () => {
    const workspace = await folder('taskweave-messages-undo-');
    const script = await writeScript(await folder('taskweave-messages-undo-script-'), {
      turns: [
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'one\n' } }] },
        { text: 'Done.' },
      ],
    });
    const made = await runCli([
      'run',
      'write a',
      '-C',
      workspace,
      '--model',
      `script:${script}`,
      '--approval',
      'auto',
    ]);
    expect(made.code, made.stderr).toBe(0);
    // The file is gone already: the undo has nothing to put back.
    await rm(`${workspace}/a.txt`);
    const undo = await PtyRun.run(['undo', '-C', workspace], { env: { NO_COLOR: '1' } });
    expect(undo.text).toContain('0 files put back');
    expect(undo.text).not.toContain('taskweave redo');
  });

  it('apply and diff errors start `error:` as every other error does', async () => {
    const plain = await folder('taskweave-messages-apply-');
    for (const command of ['apply', 'diff']) {
      const run = await runCli([command, '-C', plain]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: /);
    }
  });
});
