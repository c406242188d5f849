import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PTY_ROWS, PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const ANSWER = [
  '## Fixed the build',
  '',
  'The **type error** in `src/index.ts` is gone:',
  '',
  '- `total` is a string now',
  '- the build passes',
  '',
  '| check | result |',
  '|---|---|',
  '| tsc | passes |',
  '| npm test | 12 passed |',
  '',
  '```ts',
  'const total: string = prices[0].toFixed(2);',
  '```',
].join('\n');

async function setup() {
  const workspace = await tempWorkspaceRoot('taskweave-markdown-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
    turns: [{ text: ANSWER }],
  });
  return { workspace, model: `script:${script}` };
}

describe('markdown in the model’s answer', () => {
  it('is rendered on an 80×24 terminal: no markup left, bullets, an aligned table, code behind a gutter', async () => {
    const { workspace, model } = await setup();
    const run = await PtyRun.run(['run', '--model', model, '--cwd', workspace, 'fix the build'], {
      env: { NO_COLOR: '', FORCE_COLOR: '' },
    });
    expect(run.code).toBe(0);
    const { screen } = run;
    expect(screen).toHaveLength(PTY_ROWS);
    const answer = screen.slice(screen.indexOf('Fixed the build'));
    expect(answer.slice(0, 14)).toEqual([
      'Fixed the build',
      '',
      'The type error in src/index.ts is gone:',
      '',
      '• total is a string now',
      '• the build passes',
      '',
      'check     result',
      '────────  ─────────',
      'tsc       passes',
      'npm test  12 passed',
      '',
      'ts',
      '│ const total: string = prices[0].toFixed(2);',
    ]);
    expect(run.text).not.toMatch(/\*\*|##|```|\|---/);
    expect(answer).toContainEqual(expect.stringMatching(/^✓ completed · 1 step/));
  });

  it('is left as written when the output is piped', async () => {
    const { workspace, model } = await setup();
    const run = await runCli(['run', '--model', model, '--cwd', workspace, 'fix the build'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(ANSWER);
  });
});
