import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { eventKinds, tempWorkspaceRoot } from '../helpers/run-harness.js';

const EXAMPLE = path.resolve('examples/roa.json');

const block = (value: unknown) => `\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;

describe('taskweave run --loop roa (CLI, script model)', () => {
  it('runs reason → act → observe in every step and ends when Observe says so (--json, exit 0)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-e2e-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const script = await writeScript(scripts, {
      turns: [
        { phase: 'reason', text: `Nothing is there yet.${block({ plan: 'write note.txt', finish: false })}` },
        { phase: 'act', toolCalls: [{ name: 'write_file', args: { path: 'note.txt', content: 'hi\n' } }] },
        { phase: 'observe', object: { observation: 'Written, not checked.', should_continue: true } },
        { phase: 'reason', when: 'not checked', text: 'Check it.' },
        { phase: 'act', toolCalls: [{ name: 'read_file', args: { path: 'note.txt' } }] },
        {
          phase: 'observe',
          when: 'note.txt',
          object: { observation: 'It says hi.', should_continue: false, final_answer: 'Wrote note.txt.' },
        },
      ],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--loop',
      'roa',
      '--model',
      `script:${script}`,
      '--cwd',
      workspace,
      '--json',
      'write a note',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await readFile(path.join(workspace, 'note.txt'), 'utf8')).toBe('hi\n');
    const events = parseJsonLines(run.stdout);
    const step = ['agent_turn_start', 'agent_reason', 'tool_start', 'tool_complete', 'agent_observe'];
    expect(
      eventKinds(events).filter((kind) => kind !== 'agent_text_delta' && kind !== 'model_usage'),
    ).toEqual(['agent_start', ...step, ...step, 'agent_completion', 'response_complete']);
    expect(events[0]).toMatchObject({ update_type: 'agent_start', loop: 'roa', mode: 'simple' });
    const phases = events.flatMap((event) =>
      event.type === 'agent_update' && event.update_type === 'model_usage' ? [event.phase] : [],
    );
    expect(phases).toEqual(['reason', 'act', 'observe', 'reason', 'act', 'observe']);
    const observed = events.filter(
      (event) => event.type === 'agent_update' && event.update_type === 'agent_observe',
    );
    expect(observed.map((event) => 'should_continue' in event && event.should_continue)).toEqual([
      true,
      false,
    ]);
    expect(events.at(-1)).toMatchObject({ status: 'completed', final_answer: 'Wrote note.txt.' });
  });

  it('replays examples/roa.json: writes inside roa-demo/ and shows each phase to people', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-e2e-');
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--loop',
      'roa',
      '--model',
      `script:${EXAMPLE}`,
      '--cwd',
      workspace,
      'write a greeting script and check that it runs',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await readFile(path.join(workspace, 'roa-demo/greet.mjs'), 'utf8')).toContain('process.argv[2]');
    expect(run.stdout).toMatch(/^reason: The workspace has no greeting script yet/m);
    expect(run.stdout).toMatch(/^observe: node greet\.mjs Ada printed Hello, Ada!/m);
    expect(run.stdout).toMatch(/✓ completed · 2 steps/);
  });

  it('rejects an unknown loop with exit 2', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-e2e-');
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--loop',
      'plan-and-pray',
      '--cwd',
      workspace,
      'anything',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--loop/);
  });
});
