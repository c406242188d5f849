import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { eventKinds, tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(script: unknown) {
  const workspace = await tempWorkspaceRoot('taskweave-e2e-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  const scriptPath = await writeScript(scripts, script);
  return { workspace, model: `script:${scriptPath}` };
}

describe('taskweave run (CLI, script model)', () => {
  it('works a goal through, writes the files and prints the protocol events with --json (exit 0)', async () => {
    const { workspace, model } = await setup({
      turns: [
        {
          text: 'Writing the greeting.',
          toolCalls: [{ name: 'write_file', args: { path: 'out/hello.txt', content: 'hello\n' } }],
        },
        { toolCalls: [{ name: 'read_file', args: { path: 'out/hello.txt' } }] },
        { text: 'Wrote out/hello.txt.' },
      ],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--json',
      'write a greeting',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await readFile(path.join(workspace, 'out/hello.txt'), 'utf8')).toBe('hello\n');
    const events = parseJsonLines(run.stdout);
    const kinds = eventKinds(events).filter((kind) => kind !== 'agent_text_delta' && kind !== 'model_usage');
    expect(kinds).toEqual([
      'agent_start',
      'agent_turn_start',
      'agent_reason',
      'tool_start',
      'tool_complete',
      'agent_turn_start',
      'tool_start',
      'tool_complete',
      'agent_turn_start',
      'agent_completion',
      'response_complete',
    ]);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(new Set(events.map((event) => event.run_id)).size).toBe(1);
    expect(events.at(-1)).toMatchObject({
      type: 'response_complete',
      status: 'completed',
      final_answer: 'Wrote out/hello.txt.',
    });
    expect(events[0]).toMatchObject({
      update_type: 'agent_start',
      mode: 'simple',
      loop: 'react',
      max_steps: 50,
    });
  });

  it('renders one line per tool call with a ✓/✗ result and no colours without a terminal', async () => {
    const { workspace, model } = await setup({
      turns: [
        { toolCalls: [{ name: 'run_command', args: { command: 'exit 2' } }] },
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] },
        { text: 'Done.' },
      ],
    });
    const run = await runCli(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'try it']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/→ run_command\("exit 2"\) ✗ exit 2/);
    expect(run.stdout).toMatch(/→ write_file\("a\.txt"\) ✓/);
    expect(run.stdout).toMatch(/✓ completed/);
    // The answer streamed as text is not printed a second time at the end.
    expect(run.stdout.split('Done.').length - 1).toBe(1);
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('exits 1 when the model fails for good, with the provider message', async () => {
    const { workspace, model } = await setup({
      turns: [{ error: { status: 400, message: 'bad request: unknown field' } }],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--json',
      'anything',
    ]);
    expect(run.code).toBe(1);
    const last = parseJsonLines(run.stdout).find(
      (event) => event.type === 'agent_update' && event.update_type === 'agent_completion',
    );
    expect(last).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(last)).toContain('bad request: unknown field');
  });

  it('retries a rate-limited call and then succeeds', async () => {
    const { workspace, model } = await setup({
      turns: [{ error: { status: 429, message: 'rate limited' } }, { text: 'Fine after a retry.' }],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--json',
      'anything',
    ]);
    expect(run.code).toBe(0);
    expect(eventKinds(parseJsonLines(run.stdout))).toContain('agent_retry');
  });

  it('exits 3 when the step limit is reached', async () => {
    const { workspace, model } = await setup({
      turns: [
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: '1' } }] },
        { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: '2' } }] },
      ],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--max-steps',
      '1',
      '--json',
      'go',
    ]);
    expect(run.code).toBe(3);
    expect(parseJsonLines(run.stdout).at(-1)).toMatchObject({
      type: 'response_complete',
      status: 'max_steps',
    });
  });

  it('exits 3 on Ctrl-C (SIGINT), killing the command in flight', async () => {
    const { workspace, model } = await setup({
      turns: [{ toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] }, { text: 'unreached' }],
    });
    const started = Date.now();
    const run = await runCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'go'],
      {
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('"tool_start"')) child.kill('SIGINT');
          });
        },
      },
    );
    expect(run.code).toBe(3);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(parseJsonLines(run.stdout).at(-1)).toMatchObject({ type: 'response_complete', status: 'stopped' });
  });

  it('exits 4 when the agent asks a question and no one can answer', async () => {
    const { workspace, model } = await setup({
      turns: [{ toolCalls: [{ name: 'request_input', args: { question: 'Which database should I use?' } }] }],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--json',
      'set up storage',
    ]);
    expect(run.code).toBe(4);
    const events = parseJsonLines(run.stdout);
    expect(
      events.find((event) => event.type === 'agent_update' && event.update_type === 'agent_request_input'),
    ).toMatchObject({
      question: 'Which database should I use?',
    });
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'needs_input' });
  });

  it('exits 2 with a clear message for bad usage and configuration', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-e2e-');
    const env = {
      TASKWEAVE_MODEL: '',
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      GOOGLE_GENERATIVE_AI_API_KEY: '',
      GEMINI_API_KEY: '',
      HOME: workspace,
      XDG_CONFIG_HOME: path.join(workspace, 'xdg'),
    };
    const noModel = await runCli(['run', '--approval', 'auto', '--cwd', workspace, 'do it'], { env });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/--model/);
    expect(noModel.stderr).toMatch(/OPENAI_API_KEY/);

    const missingScript = await runCli(
      ['run', '--approval', 'auto', '--model', 'script:nope.json', '--cwd', workspace, 'do it'],
      {
        env,
      },
    );
    expect(missingScript.code).toBe(2);
    expect(missingScript.stderr).toContain('nope.json');

    const badSteps = await runCli(['run', '--approval', 'auto', '--max-steps', 'many', 'do it'], { env });
    expect(badSteps.code).toBe(2);
    expect(badSteps.stderr).toContain('positive whole number');

    const badCwd = await runCli(
      [
        'run',
        '--approval',
        'auto',
        '--model',
        'script:x.json',
        '--cwd',
        path.join(workspace, 'absent'),
        'go',
      ],
      { env },
    );
    expect(badCwd.code).toBe(2);
    expect(badCwd.stderr).toContain('does not exist');

    await mkdir(path.join(workspace, '.taskweave'));
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(path.join(workspace, '.taskweave/config.json'), '{ not json'),
    );
    const brokenConfig = await runCli(['run', '--approval', 'auto', '--cwd', workspace, 'do it'], { env });
    expect(brokenConfig.code).toBe(2);
    expect(brokenConfig.stderr).toContain('config.json');
  });
});

describe('the bundled fix-build example', () => {
  it('creates the project, sees the type error, fixes it and the build passes (needs the npm registry)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-example-');
    const example = path.resolve('examples/fix-build.json');
    const run = await runCli(
      [
        'run',
        '--approval',
        'auto',
        '--network',
        '--model',
        `script:${example}`,
        '--cwd',
        workspace,
        'run npm run build and fix any errors',
      ],
      {
        timeoutMs: 240_000,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/→ run_command\("npm run build", …\) ✗ exit 2/);
    expect(run.stdout).toMatch(/→ edit_file\("fix-build-demo\/src\/index\.ts", 1 edit\) ✓/);
    expect(run.stdout).toMatch(/→ run_command\("npm run build", …\) ✓ exit 0/);
    expect(await readFile(path.join(workspace, 'fix-build-demo/src/index.ts'), 'utf8')).toContain(
      'const total: string',
    );
    expect(await readFile(path.join(workspace, 'fix-build-demo/dist/index.js'), 'utf8')).toContain(
      'toFixed(2)',
    );
  }, 300_000);
});
