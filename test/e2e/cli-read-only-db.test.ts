import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/tools/sandbox-probe.js';
import { CLI_PATH, type CliResult, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const bwrap = found.bwrap;

/**
 * Runs the CLI with `readOnlyPath` mounted read-only (a real read-only mount: even root cannot
 * write there, unlike a chmod 444 file).
 */
function runCliReadOnly(readOnlyPath: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      bwrap,
      ['--dev-bind', '/', '/', '--ro-bind', readOnlyPath, readOnlyPath, process.execPath, CLI_PATH, ...args],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function workspaceWithHistory(): Promise<string> {
  const workspace = await tempWorkspaceRoot('taskweave-readonly-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
    turns: [{ text: 'Nothing to do.' }],
  });
  const run = await runCli(['run', '--model', `script:${script}`, '--cwd', workspace, 'first goal']);
  expect(run.code, run.stderr).toBe(0);
  expect((await runCli(['tasks', 'add', '--cwd', workspace, 'queued goal'])).code).toBe(0);
  return workspace;
}

describe('a read-only database can still be read', () => {
  for (const which of ['the database file', 'the whole .taskweave folder']) {
    it(`tasks list, sessions list and sessions show work when ${which} is read-only`, async () => {
      const workspace = await workspaceWithHistory();
      const folder = path.join(workspace, '.taskweave');
      const readOnly = which === 'the database file' ? path.join(folder, 'taskweave.db') : folder;
      const before = await readdir(folder);

      const tasks = await runCliReadOnly(readOnly, ['tasks', 'list', '--cwd', workspace]);
      expect(tasks.stderr).toBe('');
      expect(tasks.code).toBe(0);
      expect(tasks.stdout).toContain('queued goal');
      const sessions = await runCliReadOnly(readOnly, ['sessions', 'list', '--cwd', workspace]);
      expect(sessions.stderr).toBe('');
      expect(sessions.stdout).toContain('first goal');
      const show = await runCliReadOnly(readOnly, [
        'sessions',
        'show',
        'last',
        '--events',
        '--cwd',
        workspace,
      ]);
      expect(show.stderr).toBe('');
      expect(show.code).toBe(0);
      expect(show.stdout).toContain('Nothing to do.');
      if (readOnly === folder) expect(await readdir(folder)).toEqual(before);

      // A command that changes the database says clearly that it cannot.
      const add = await runCliReadOnly(readOnly, ['tasks', 'add', '--cwd', workspace, 'another']);
      expect(add.code).not.toBe(0);
      expect(add.stderr).not.toContain('    at ');
    });
  }
});
