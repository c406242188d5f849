import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { probeSandbox } from '../../src/tools/sandbox/index.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/*
 * Issue 39 item 19: `echo ${A` (an unterminated expansion) under `--approval auto` with no
 * terminal ended the run `needs_input`. It now runs in the sandbox (bash reports its own error)
 * or, when a deny entry could hide in it, comes back to the model as a tool error it can fix.
 * Through the built CLI with the script model (`npm run build` first).
 */

const UNTERMINATED = 'echo ${A; touch made.txt';

const command = (line: string) => ({ name: 'run_command', args: { command: line } });

async function userConfig(config: unknown): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
  await mkdir(path.join(home, 'taskweave'));
  await writeFile(path.join(home, 'taskweave', 'config.json'), JSON.stringify(config));
  return { XDG_CONFIG_HOME: home };
}

async function runAuto(options: { turns: unknown[]; config: unknown; sandbox: string }) {
  const workspace = await tempWorkspaceRoot('taskweave-unreadable-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  const model = `script:${await writeScript(scripts, { turns: options.turns })}`;
  const args = ['run', '--approval', 'auto', '--sandbox', options.sandbox, '--json', '--model', model];
  const run = await runCli([...args, '-C', workspace, 'go'], { env: await userConfig(options.config) });
  return { workspace, run, events: parseJsonLines(run.stdout) };
}

function updates(events: ServerEvent[], kind: string) {
  return events.filter((event) => event.type === 'agent_update' && event.update_type === kind);
}

const sandbox = (await probeSandbox()).available ? 'workspace-write' : 'off';

describe('a line the bash grammar cannot read, --approval auto, no terminal', { timeout: 120_000 }, () => {
  it(`runs (in the ${sandbox} sandbox): bash reports its own error, the run completes`, async () => {
    const { workspace, run, events } = await runAuto({
      turns: [{ toolCalls: [command(UNTERMINATED)] }, { when: 'unexpected EOF', text: 'A typo; fixed.' }],
      config: {},
      sandbox,
    });
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0);
    expect(updates(events, 'approval_requested')).toHaveLength(0);
    // A command that exits non-zero is a tool error carrying its output: here bash's own message.
    expect(
      events.find((event) => event.type === 'tool_complete' || event.type === 'tool_error'),
    ).toMatchObject({
      type: 'tool_error',
      error: expect.stringMatching(/Exit code: 2[\s\S]*unexpected EOF while looking for matching `}'/),
    });
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'completed' });
    expect(existsSync(path.join(workspace, 'made.txt'))).toBe(false);
  });

  it('under a deny list it is a tool error the model can act on; nothing runs, the run completes', async () => {
    const { workspace, run, events } = await runAuto({
      turns: [
        { toolCalls: [command(UNTERMINATED)] },
        { when: 'cannot check this command line', toolCalls: [command('touch fixed.txt')] },
        { when: 'Exit code: 0', text: 'Done.' },
      ],
      config: { deny: ['rm'] },
      sandbox,
    });
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0);
    expect(updates(events, 'approval_requested')).toHaveLength(0);
    expect(events.find((event) => event.type === 'tool_error')).toMatchObject({
      error: expect.stringMatching(
        /cannot check this command line against the deny list.*not valid shell syntax/,
      ),
    });
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'completed' });
    expect(existsSync(path.join(workspace, 'made.txt'))).toBe(false);
    expect(existsSync(path.join(workspace, 'fixed.txt'))).toBe(true);
  });
});
