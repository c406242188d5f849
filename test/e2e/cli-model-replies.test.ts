import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPETITION_FAIL_LIMIT } from '../../src/agent/loop/recovery.js';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function run(turns: unknown[], extra: string[] = []) {
  const workspace = await tempWorkspaceRoot('taskweave-replies-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  const model = `script:${await writeScript(scripts, { turns })}`;
  const result = await runCli([
    'run',
    '--approval',
    'auto',
    '--model',
    model,
    '--cwd',
    workspace,
    '--json',
    ...extra,
    'go',
  ]);
  const events = parseJsonLines(result.stdout);
  const complete = events.at(-1) as Extract<ServerEvent, { type: 'response_complete' }>;
  return { result, events, complete, workspace };
}

describe('model replies that used to end a run wrongly (CLI, script model)', () => {
  it('one reply with 100 identical run_command calls runs the command 4 times and exits 1 as failed', async () => {
    const call = { name: 'run_command', args: { command: 'echo x >> count.txt' } };
    const { result, complete, workspace } = await run([
      { toolCalls: Array.from({ length: 100 }, () => call) },
    ]);
    expect(complete).toMatchObject({ type: 'response_complete', status: 'failed' });
    expect(result.code, result.stderr).toBe(1);
    const lines = (await readFile(path.join(workspace, 'count.txt'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(REPETITION_FAIL_LIMIT - 1);
  });

  it('a reply cut off by the token limit is not the answer: the run fails with the reason, exit 1', async () => {
    const cut = { text: 'The result is', finishReason: 'length' };
    const { result, complete } = await run([cut, cut, cut]);
    expect(complete).toMatchObject({ status: 'failed' });
    expect(complete.final_answer).toBeUndefined();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/cut off at the output token limit/);
  });

  it('--protocol json: a reply with only reasoning is not the answer', async () => {
    const thinking = { text: JSON.stringify({ reasoning: 'Let me think.', tool_calls: [] }) };
    const answer = { text: JSON.stringify({ tool_calls: [], final_answer: 'Forty-two.' }) };
    const { result, complete } = await run([thinking, answer], ['--protocol', 'json']);
    expect(complete).toMatchObject({ status: 'completed', final_answer: 'Forty-two.' });
    expect(result.code).toBe(0);
  });
});
