import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/*
 * Stops that leave nothing dangling (issue 40, item 4), on an 80×24 terminal: Ctrl-C at the
 * plan's approval leaves the plan for `resume`, a stopped plan says how to continue it with every
 * option the run was given, Ctrl-C on a request waiting in the queue says it was cancelled.
 */

const FRESH_TASK = '(no tool calls yet for this task)';

const plan = {
  phase: 'plan',
  toolCalls: [
    {
      name: 'plan_actions',
      args: {
        tasks: [
          { id: 'a', title: 'Write a', description: 'write a.txt' },
          { id: 'b', title: 'Write b', description: 'write b.txt', depends_on: ['a'] },
        ],
      },
    },
  ],
};

const writes = (id: string) => [
  { task: id, toolCalls: [{ name: 'write_file', args: { path: `${id}.txt`, content: `${id}\n` } }] },
  { task: id, toolCalls: [{ name: 'task_completed', args: { summary: `${id} written` } }] },
];

const finalAnswer = { toolCalls: [{ name: 'final_answer', args: { answer: 'both written' } }] };

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-stops-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

/**
 * The words of the `taskweave resume …` command a line of the run shows after `label` (the CLI
 * wraps it at the terminal's width: its rows are joined up to the next line of another kind).
 */
function shownCommand(text: string, label: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((candidate) => candidate.startsWith(label));
  expect(start, text).toBeGreaterThanOrEqual(0);
  const rows = [lines[start]!.slice(label.length)];
  for (const row of lines.slice(start + 1)) {
    if (row.trim() === '' || /^(On a terminal|■|✓|✗)/.test(row)) break;
    rows.push(row);
  }
  const words = rows.join(' ').trim().split(/\s+/);
  expect(words.slice(0, 2), text).toEqual(['taskweave', 'resume']);
  return words.slice(1);
}

describe('stops that leave nothing dangling, on an 80×24 terminal', () => {
  it("Ctrl-C at the plan's approval leaves the plan for resume, and says how with every option", async () => {
    const { workspace, model } = await setup([plan, ...writes('a'), ...writes('b'), finalAnswer]);
    const run = PtyRun.start(
      [
        'run',
        '--plan',
        'always',
        '--approval',
        'auto',
        '--budget',
        '5',
        '--max-steps',
        '30',
        '--model',
        model,
        '--cwd',
        workspace,
        'write a then b',
      ],
      { env: { NO_COLOR: '1' } },
    );
    await run.waitFor('Approve this plan?', { timeoutMs: 60_000 });
    run.type('\u0003');
    expect(await run.exited, run.text()).toBe(3);
    const text = run.text();
    const resume = shownCommand(text, 'To approve the plan and run it:');
    expect(resume).toEqual(
      expect.arrayContaining(['--budget', '5', '--max-steps', '30', '--approval', 'auto', '--yes']),
    );

    const resumed = await runCli(resume);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toMatch(/✓ completed/);
    const tasks = await runCli(['tasks', 'list', '--all', '--cwd', workspace]);
    expect(tasks.stdout, tasks.stdout).toMatch(/completed\s+write a then b/);
  }, 120_000);

  it('a plan stopped with Ctrl-C (exit 3) says how to continue it, with every option the run was given', async () => {
    const { workspace, model } = await setup([
      plan,
      { task: 'a', when: FRESH_TASK, toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
      ...writes('a'),
      ...writes('b'),
      finalAnswer,
    ]);
    const run = PtyRun.start(
      [
        'run',
        '--plan',
        'always',
        '--yes',
        '--approval',
        'auto',
        '--budget',
        '5',
        '--concurrency',
        '2',
        '--model',
        model,
        '--cwd',
        workspace,
        'write a then b',
      ],
      { env: { NO_COLOR: '1' } },
    );
    await run.waitFor('run_command("sleep 30")', { timeoutMs: 60_000 });
    run.type('\u0003');
    expect(await run.exited, run.text()).toBe(3);
    // The stopped goal is stopped in the to-do list: not failed, not cancelled.
    const stopped = await runCli(['tasks', 'list', '--all', '--cwd', workspace]);
    expect(stopped.stdout, stopped.stdout).toMatch(/stopped\s+write a then b/);
    const resume = shownCommand(run.text(), 'To continue:');
    expect(resume).toEqual(
      expect.arrayContaining([
        '--budget',
        '5',
        '--concurrency',
        '2',
        '--approval',
        'auto',
        '--cwd',
        workspace,
      ]),
    );
    const resumed = await runCli(resume);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toMatch(/✓ completed/);
    // The goal finished by resume is completed in the to-do list too.
    const tasks = await runCli(['tasks', 'list', '--all', '--cwd', workspace]);
    expect(tasks.stdout, tasks.stdout).toMatch(/completed\s+write a then b/);
  }, 120_000);

  it('a goal without a plan stopped with Ctrl-C is stopped in the to-do list, and resume continues it', async () => {
    const { workspace, model } = await setup([
      { when: 'The user stopped the previous run', text: 'Slept enough.' },
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
    ]);
    const run = PtyRun.start(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'sleep a while'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    await run.waitFor('run_command("sleep 30")', { timeoutMs: 60_000 });
    run.type('\u0003');
    expect(await run.exited, run.text()).toBe(3);
    const stopped = await runCli(['tasks', 'list', '--cwd', workspace]);
    expect(stopped.stdout, stopped.stdout).toMatch(/stopped\s+sleep a while/);
    const resume = shownCommand(run.text(), 'To continue:');
    const resumed = await runCli(resume);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toMatch(/Slept enough\./);
    const tasks = await runCli(['tasks', 'list', '--all', '--cwd', workspace]);
    expect(tasks.stdout, tasks.stdout).toMatch(/completed\s+sleep a while/);
  }, 120_000);

  it('Ctrl-C on a request waiting in the queue says it cancelled the queued request', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'slept' } }] },
    ]);
    const first = PtyRun.start(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'sleep'], {
      env: { NO_COLOR: '1' },
    });
    await first.waitFor('run_command("sleep 30")', { timeoutMs: 60_000 });
    const queued = PtyRun.start(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'the queued one'],
      { env: { NO_COLOR: '1' } },
    );
    await queued.waitFor('waiting for its turn', { timeoutMs: 60_000 });
    queued.type('\u0003');
    expect(await queued.exited, queued.text()).toBe(3);
    expect(queued.text()).toMatch(/^Cancelled your queued request \(task task_[a-z0-9]+\)\.$/m);
    first.type('\u0003');
    await first.exited;
    const tasks = await runCli(['tasks', 'list', '--all', '--cwd', workspace]);
    expect(tasks.stdout).toMatch(/cancelled\s+the queued one/);
    // The session made for the cancelled request held nothing: it is gone; the first one stays.
    const sessions = await runCli(['sessions', 'list', '--json', '--cwd', workspace]);
    expect(sessions.code, sessions.stderr).toBe(0);
    const goals = (JSON.parse(sessions.stdout) as { goal: string }[]).map((session) => session.goal);
    expect(goals).toEqual(['sleep']);
  }, 120_000);

  it('Ctrl-C on a request queued into a session with earlier goals leaves that session', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'slept' } }] },
    ]);
    const answer = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ text: 'first done' }],
    });
    const earlier = await runCli([
      'run',
      '--model',
      `script:${answer}`,
      '--cwd',
      workspace,
      'the earlier goal',
    ]);
    expect(earlier.code, earlier.stderr).toBe(0);
    const listed = await runCli(['sessions', 'list', '--json', '--cwd', workspace]);
    const [earlierSession] = JSON.parse(listed.stdout) as { id: string }[];
    const blocker = PtyRun.start(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'sleep'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    await blocker.waitFor('run_command("sleep 30")', { timeoutMs: 60_000 });
    const queued = PtyRun.start(
      ['run', '--resume', earlierSession!.id, '--model', model, '--cwd', workspace, 'a follow-up'],
      { env: { NO_COLOR: '1' } },
    );
    await queued.waitFor('waiting for its turn', { timeoutMs: 60_000 });
    queued.type('\u0003');
    expect(await queued.exited, queued.text()).toBe(3);
    expect(queued.text()).toMatch(/^Cancelled your queued request/m);
    blocker.type('\u0003');
    await blocker.exited;
    const sessions = await runCli(['sessions', 'list', '--json', '--cwd', workspace]);
    const goals = (JSON.parse(sessions.stdout) as { goal: string }[]).map((session) => session.goal);
    expect(goals.sort()).toEqual(['sleep', 'the earlier goal']);
  }, 120_000);
});
