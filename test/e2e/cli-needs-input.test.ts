import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const EXAMPLE = path.resolve('examples/webapp.json');

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-waiting-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

/** The session list's and the task list's rows as JSON. */
async function lists(workspace: string) {
  const sessions = JSON.parse((await runCli(['sessions', 'list', '--json', '--cwd', workspace])).stdout);
  const tasks = JSON.parse((await runCli(['tasks', 'list', '--json', '--cwd', workspace])).stdout);
  return { sessions, tasks };
}

/** The `taskweave resume …` command a run printed after "prefix", as arguments. */
function printedCommand(stdout: string, prefix: string): string[] {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(prefix));
  expect(line, stdout).toBeDefined();
  return (line ?? '').slice(prefix.length).trim().split(' ');
}

// Each test runs several CLI processes one after another: on a loaded 2-core machine (load 20+)
// that takes more than the default 30 s; a wait here is for the processes to end, not for a time.
describe('exit code 4 is not a dead end', { timeout: 120_000 }, () => {
  it('a question: the run prints the command that answers it, both lists say it waits, resume --answer continues', async () => {
    const { workspace, model } = await setup([
      { when: 'The user answered: PostgreSQL', text: 'Using PostgreSQL, as you said.' },
      { toolCalls: [{ name: 'request_input', args: { question: 'Which database should I use?' } }] },
    ]);
    const run = await runCli(['run', '--model', model, '--cwd', workspace, 'set up storage']);
    expect(run.code, run.stdout + run.stderr).toBe(4);
    const command = printedCommand(run.stdout, 'To answer and continue: ');
    expect(command.slice(0, 3)).toEqual(['taskweave', 'resume', expect.stringMatching(/^ses_/)]);
    expect(run.stdout).toMatch(/To answer and continue: .* --answer "<your answer>"\n/);
    expect(command.slice(-3)).toEqual(['--answer', '"<your', 'answer>"']);

    const waiting = await lists(workspace);
    expect(waiting.sessions[0].last_run_status).toBe('needs_input');
    expect(waiting.tasks).toHaveLength(1);
    expect(waiting.tasks[0]).toMatchObject({
      status: 'blocked',
      session_id: command[2],
      fail_reason: 'needs input: Which database should I use?',
    });
    const table = await runCli(['tasks', 'list', '--cwd', workspace]);
    expect(table.stdout).toMatch(/blocked \(needs input\)\s+set up storage/);

    // Without an answer and without a terminal, resume says what it waits for and how to give it.
    const unanswered = await runCli(['resume', '--model', model, '--cwd', workspace]);
    expect(unanswered.code).toBe(4);
    expect(unanswered.stdout).toContain(
      `Session ${command[2]} waits for an answer to: Which database should I use?`,
    );
    expect(unanswered.stdout).toContain('--answer "<your answer>"');

    // The printed command, with the answer filled in, continues the session.
    const args = [...command.slice(1, -2), 'PostgreSQL'];
    const resumed = await runCli(args);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Using PostgreSQL, as you said.');
    const done = await lists(workspace);
    expect(done.sessions[0]).toMatchObject({ last_run_status: 'completed', run_count: 2 });
    expect(done.tasks).toEqual([]);
    const all = JSON.parse((await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace])).stdout);
    expect(all).toMatchObject([{ status: 'completed', attempts: 2 }]);
  });

  it('the printed command repeats --approval and --sandbox: following it as printed does not stop again', async () => {
    const { workspace, model } = await setup([
      {
        when: 'The user answered: yes',
        toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'kept\n' } }],
      },
      { when: 'The user answered: yes', text: 'Wrote notes.txt.' },
      { toolCalls: [{ name: 'request_input', args: { question: 'Write the notes?' } }] },
    ]);
    const run = await runCli([
      'run',
      '--approval',
      'edits',
      '--sandbox',
      'off',
      '--model',
      model,
      '--cwd',
      workspace,
      'take notes',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(4);
    const command = printedCommand(run.stdout, 'To answer and continue: ');
    expect(command.join(' ')).toContain('--sandbox off --approval edits --answer');
    expect(run.stdout).toMatch(/On a terminal, taskweave resume ses_\S+ .*--approval edits asks you\./);
    const resumed = await runCli([...command.slice(1, -2), 'yes']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Wrote notes.txt.');
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('kept\n');
  });

  it('a plan waiting for approval: resume --yes approves and runs it; the plan tasks show under their goal', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-waiting-');
    const model = `script:${EXAMPLE}`;
    const run = await runCli(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'build it']);
    expect(run.code).toBe(4);
    const command = printedCommand(run.stdout, 'To approve the plan and run it: ');
    expect(command.slice(-3)).toEqual(['--approval', 'auto', '--yes']);
    const { tasks } = await lists(workspace);
    expect(tasks).toHaveLength(1);
    expect(tasks[0].status).toBe('blocked');
    expect(tasks[0].tasks.map((task: { title: string }) => task.title)).toEqual([
      'Create the webapp project',
      'Write src/index.ts',
      'Write public/index.html',
    ]);
    const resumed = await runCli(command.slice(1));
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/Tasks:\n {2}✓ \[project\].*\n {2}✓ \[index\].*\n {2}✓ \[html\]/);
    await access(path.join(workspace, 'webapp/src/index.ts'));
    const all = JSON.parse((await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace])).stdout);
    expect(all[0].status).toBe('completed');
    expect(all[0].tasks.map((task: { status: string }) => task.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('a command waiting for approval: resume --approval auto continues and the command runs', async () => {
    const { workspace, model } = await setup([
      { when: 'needed an approval', toolCalls: [{ name: 'run_command', args: { command: 'rm a.txt' } }] },
      { when: 'needed an approval', text: 'Removed a.txt.' },
      { toolCalls: [{ name: 'run_command', args: { command: 'rm a.txt' } }] },
    ]);
    await writeFile(path.join(workspace, 'a.txt'), 'x\n');
    const run = await runCli(['run', '--model', model, '--cwd', workspace, 'remove a.txt']);
    expect(run.code).toBe(4);
    const command = printedCommand(run.stdout, 'To allow it and continue: ');
    expect(command.slice(-2)).toEqual(['--approval', 'auto']);
    await access(path.join(workspace, 'a.txt'));
    const resumed = await runCli([...command.slice(1), '--sandbox', 'off']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Removed a.txt.');
    await expect(access(path.join(workspace, 'a.txt'))).rejects.toThrow();
  });

  describe('a question from a plan task', () => {
    // Task turns first: a resumed process replays the script from its start, and a turn with no
    // task would go to the first task that calls. The final answer follows the answered task.
    const turns = [
      {
        task: 'ask',
        when: 'The user answered: Ada',
        toolCalls: [{ name: 'write_file', args: { path: 'hello.txt', content: 'Hello, Ada!\n' } }],
      },
      {
        task: 'ask',
        when: 'The user answered: Ada',
        toolCalls: [{ name: 'task_completed', args: { summary: 'greeted Ada' } }],
      },
      { task: 'ask', toolCalls: [{ name: 'request_input', args: { question: 'Whom should I greet?' } }] },
      {
        task: 'other',
        latencyMs: 300,
        toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'notes\n' } }],
      },
      { task: 'other', toolCalls: [{ name: 'task_completed', args: { summary: 'wrote notes' } }] },
      { when: 'greeted Ada', toolCalls: [{ name: 'final_answer', args: { answer: 'Greeted Ada.' } }] },
      {
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                {
                  id: 'ask',
                  title: 'Greet',
                  description: 'Ask whom to greet, then greet them',
                  depends_on: [],
                },
                { id: 'other', title: 'Notes', description: 'Write notes.txt', depends_on: [] },
              ],
            },
          },
        ],
      },
    ];

    it('resume --answer gives that task the answer; the plan goes on and completes', async () => {
      const { workspace, model } = await setup(turns);
      const common = ['--yes', '--approval', 'auto', '--model', model, '--cwd', workspace];
      const run = await runCli(['run', ...common, 'greet someone']);
      expect(run.code, run.stdout + run.stderr).toBe(4);
      const command = printedCommand(run.stdout, "To answer and continue (the plan's task ask asked): ");
      expect(run.stdout).toMatch(/\(the plan's task ask asked\): .* --answer "<your answer>"\n/);
      const resumed = await runCli([...command.slice(1, -2), 'Ada', '--approval', 'auto']);
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain('✓ [ask] Greet — greeted Ada');
      expect(resumed.stdout).toContain('Greeted Ada.');
      expect(await readFile(path.join(workspace, 'hello.txt'), 'utf8')).toBe('Hello, Ada!\n');
      const all = JSON.parse((await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace])).stdout);
      expect(all[0].status).toBe('completed');
      expect(all[0].tasks.map((task: { status: string }) => task.status)).toEqual(['completed', 'completed']);
    });

    it('on a terminal, resume asks the task’s question and gives it the answer', async () => {
      const { workspace, model } = await setup(turns);
      const common = ['--approval', 'auto', '--model', model, '--cwd', workspace];
      expect((await runCli(['run', '--yes', ...common, 'greet someone'])).code).toBe(4);
      const resume = PtyRun.start(['resume', ...common], { env: { NO_COLOR: '1' } });
      await resume.waitFor('? Whom should I greet?');
      await resume.waitFor('answer ›');
      resume.type('Ada\r');
      expect(await resume.exited, resume.text()).toBe(0);
      expect(resume.text()).toContain('✓ [ask] Greet — greeted Ada');
      expect(await readFile(path.join(workspace, 'hello.txt'), 'utf8')).toBe('Hello, Ada!\n');
    });
  });

  it('--answer for a session that does not wait for one is refused (exit 2)', async () => {
    const { workspace, model } = await setup([{ text: 'Done.' }]);
    expect((await runCli(['run', '--model', model, '--cwd', workspace, 'go'])).code).toBe(0);
    const resumed = await runCli(['resume', '--model', model, '--cwd', workspace, '--answer', 'x']);
    expect(resumed.code).toBe(2);
    expect(resumed.stdout + resumed.stderr).toContain('No session in this workspace waits for an answer');
  });

  it('on a terminal, resume asks the waiting question and continues with the answer', async () => {
    const { workspace, model } = await setup([
      { when: 'The user answered: Redis', text: 'Redis it is.' },
      { toolCalls: [{ name: 'request_input', args: { question: 'Which cache should I use?' } }] },
    ]);
    expect((await runCli(['run', '--model', model, '--cwd', workspace, 'add a cache'])).code).toBe(4);
    const resume = PtyRun.start(['resume', '--model', model, '--cwd', workspace], { env: { NO_COLOR: '1' } });
    await resume.waitFor('? Which cache should I use?');
    await resume.waitFor('answer ›');
    resume.type('Redis\r');
    expect(await resume.exited).toBe(0);
    expect(resume.text()).toContain('Redis it is.');
    expect(resume.text()).toContain('✓ completed');
  });
});
