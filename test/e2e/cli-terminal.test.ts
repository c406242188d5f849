import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { runInTerminal } from '../helpers/terminal.js';

const plan = (ids: string[]) => ({
  name: 'plan_actions',
  args: { tasks: ids.map((id) => ({ id, title: `Task ${id}`, description: `Do ${id}`, depends_on: [] })) },
});

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-tty-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  return { workspace, model: `script:${await writeScript(scripts, { turns })}` };
}

describe('on a terminal', () => {
  it('asks to approve the plan; feedback makes the model revise it; "y" approves', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [plan(['a'])] },
      { when: 'also write b', toolCalls: [plan(['a', 'b'])] },
      {
        task: 'a',
        toolCalls: [
          { name: 'write_file', args: { path: 'a.txt', content: 'a' } },
          { name: 'task_completed', args: { summary: 'wrote a' } },
        ],
      },
      {
        task: 'b',
        toolCalls: [
          { name: 'write_file', args: { path: 'b.txt', content: 'b' } },
          { name: 'task_completed', args: { summary: 'wrote b' } },
        ],
      },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Wrote a and b.' } }] },
    ]);
    const run = await runInTerminal(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'write the files'],
      [
        { after: 'Approve this plan?', type: 'also write b' },
        { after: 'Approve this plan?', type: 'y' },
      ],
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('✗ plan');
    expect(run.output).toContain('rejected: also write b');
    await access(path.join(workspace, 'b.txt'));
  });

  it('asks the agent’s question on the terminal and passes the answer on', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'request_input', args: { question: 'Which port should the server use?' } }] },
      { when: '8080', toolCalls: [{ name: 'write_file', args: { path: 'port.txt', content: '8080' } }] },
      { text: 'Configured port 8080.' },
    ]);
    const run = await runInTerminal(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'configure the server'],
      [{ after: 'answer ›', type: '8080' }],
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('? Which port should the server use?');
    expect(await readFile(path.join(workspace, 'port.txt'), 'utf8')).toBe('8080');
  });

  it('asks what to do when a task fails: retry runs it again', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [plan(['a'])] },
      { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the network was down' } }] },
      {
        task: 'a',
        toolCalls: [
          { name: 'write_file', args: { path: 'a.txt', content: 'a' } },
          { name: 'task_completed', args: { summary: 'wrote a' } },
        ],
      },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Done after a retry.' } }] },
    ]);
    const run = await runInTerminal(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--yes', 'write a'],
      [{ after: '[r]etry, [s]kip, re[v]ise the plan, or [a]bort?', type: 'r' }],
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('Task a failed');
    expect(run.output).toContain('Done after a retry.');
  });

  it('Ctrl-C at a prompt stops the run (exit 3), whether it asks for approval or an answer', async () => {
    const approval = await setup([{ toolCalls: [plan(['a'])] }]);
    const atApproval = await runInTerminal(
      ['run', '--approval', 'auto', '--model', approval.model, '--cwd', approval.workspace, 'plan it'],
      [{ after: 'Approve this plan?', type: '\u0003' }],
    );
    expect(atApproval.code, atApproval.output).toBe(3);
    expect(atApproval.output).toContain('stopping at the next step boundary');

    const question = await setup([
      { toolCalls: [{ name: 'request_input', args: { question: 'Which port should the server use?' } }] },
    ]);
    const atQuestion = await runInTerminal(
      ['run', '--approval', 'auto', '--model', question.model, '--cwd', question.workspace, 'ask me'],
      [{ after: 'answer ›', type: '\u0003' }],
    );
    expect(atQuestion.code, atQuestion.output).toBe(3);
  });

  it('holds back the output of parallel tasks while the user types an answer', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [plan(['ask', 'other'])] },
      { task: 'ask', toolCalls: [{ name: 'request_input', args: { question: 'Which name?' } }] },
      { task: 'ask', toolCalls: [{ name: 'task_completed', args: { summary: 'asked' } }] },
      {
        task: 'other',
        // Long enough that the prompt is up first on a loaded machine; the answer comes later still.
        latencyMs: 1500,
        toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b' } }],
      },
      { task: 'other', toolCalls: [{ name: 'task_completed', args: { summary: 'wrote b' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Both done.' } }] },
    ]);
    const run = await runInTerminal(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--yes', 'two things'],
      [{ after: 'answer ›', type: 'Ada', delayMs: 3000 }],
    );
    expect(run.code, run.output).toBe(0);
    const prompt = run.output.indexOf('answer ›');
    expect(prompt).toBeGreaterThan(-1);
    expect(run.output.indexOf('write_file("b.txt")')).toBeGreaterThan(run.output.indexOf('Ada', prompt));
  });
});
