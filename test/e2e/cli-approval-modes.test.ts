import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const command = (line: string) => ({ toolCalls: [{ name: 'run_command', args: { command: line } }] });
const write = (file: string) => ({
  toolCalls: [{ name: 'write_file', args: { path: file, content: 'x\n' } }],
});

/** The same four calls in every mode: one on the allow list, one on the deny list, a file change, an unlisted command. */
const TURNS = [
  command('echo allowed-by-list'),
  command('git push origin main'),
  write('changed.txt'),
  command('touch unlisted.txt'),
  { text: 'Done.' },
];

async function runMode(mode: string) {
  const workspace = await tempWorkspaceRoot(`taskweave-mode-${mode}-`);
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns: TURNS });
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
  await mkdir(path.join(home, 'taskweave'));
  await writeFile(
    path.join(home, 'taskweave', 'config.json'),
    JSON.stringify({ allow: ['echo allowed-by-list'], deny: ['git push'] }),
  );
  const run = await runCli(
    ['run', '--approval', mode, '--model', `script:${script}`, '--cwd', workspace, '--json', 'four calls'],
    { env: { XDG_CONFIG_HOME: home } },
  );
  const events = parseJsonLines(run.stdout) as ServerEvent[];
  /** Each call's outcome in order: `ok`, or the tool_error's display (or first sentence). */
  const outcomes = events.flatMap((event) => {
    if (event.type === 'tool_complete') return [`${event.name}: ok`];
    if (event.type === 'tool_error') return [`${event.name}: ${event.display ?? event.error.split('. ')[0]}`];
    return [];
  });
  const asked = events.flatMap((event) =>
    event.type === 'agent_update' && event.update_type === 'approval_requested' ? [event.name] : [],
  );
  const completion = events.find(
    (event) => event.type === 'agent_update' && event.update_type === 'agent_completion',
  );
  const reason = completion && 'reason' in completion ? (completion.reason ?? '') : '';
  const exists = (file: string) => existsSync(path.join(workspace, file));
  const start = events[0];
  const sandbox =
    start?.type === 'agent_update' && start.update_type === 'agent_start' ? start.sandbox : undefined;
  return { code: run.code, output: run.stdout + run.stderr, outcomes, asked, reason, exists, sandbox };
}

describe('each approval mode, without a terminal, on the same four calls (script model)', () => {
  it('ask: the listed command runs, the denied one is refused, the file change is asked and ends the run (exit 4)', async () => {
    const run = await runMode('ask');
    expect(run.code, run.output).toBe(4);
    expect(run.outcomes).toEqual(['run_command: ok', 'run_command: refused', 'write_file: needs approval']);
    expect(run.asked).toEqual(['write_file']);
    expect(run.reason).toMatch(/needs approval .*--approval edits/);
    expect(run.exists('changed.txt')).toBe(false);
  });

  it('edits: the file change runs; the unlisted command is asked and ends the run (exit 4)', async () => {
    const run = await runMode('edits');
    expect(run.code, run.output).toBe(4);
    expect(run.outcomes).toEqual([
      'run_command: ok',
      'run_command: refused',
      'write_file: ok',
      'run_command: needs approval',
    ]);
    expect(run.asked).toEqual(['run_command']);
    expect(run.reason).toMatch(/`touch unlisted\.txt` needs approval .*--approval auto/);
    expect(run.exists('changed.txt')).toBe(true);
    expect(run.exists('unlisted.txt')).toBe(false);
  });

  it('auto: everything runs unasked (commands in the sandbox) except what the deny list names', async () => {
    const run = await runMode('auto');
    expect(run.code, run.output).toBe(0);
    expect(run.sandbox).toBe('workspace-write');
    expect(run.outcomes).toEqual([
      'run_command: ok',
      'run_command: refused',
      'write_file: ok',
      'run_command: ok',
    ]);
    expect(run.asked).toEqual([]);
    expect(run.exists('changed.txt')).toBe(true);
    expect(run.exists('unlisted.txt')).toBe(true);
  });

  it('plan-only: nothing that changes anything runs, not even what the allow list names; nothing is asked', async () => {
    const run = await runMode('plan-only');
    expect(run.code, run.output).toBe(0);
    // The changing tools are not even offered: the model learns they do not exist here.
    const missing = (tool: string) => `${tool}: There is no tool named "${tool}"`;
    expect(run.outcomes).toEqual([
      missing('run_command'),
      missing('run_command'),
      missing('write_file'),
      missing('run_command'),
    ]);
    expect(run.asked).toEqual([]);
    expect(run.exists('changed.txt')).toBe(false);
    expect(run.exists('unlisted.txt')).toBe(false);
  });
});
