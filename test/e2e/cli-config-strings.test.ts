import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { startLlmServer } from '../helpers/llm-server.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** An OSC 52 clipboard write: the terminal would put "echo pwned" on the clipboard. */
const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const ENV = { TASKWEAVE_MODEL: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', NO_COLOR: '1' };

describe('config strings taskweave prints are stripped of control sequences', { timeout: 60_000 }, () => {
  it('a config error quoting the workspace config’s model name carries no OSC 52', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-osc-error-');
    await mkdir(path.join(workspace, '.taskweave'));
    await writeFile(
      path.join(workspace, '.taskweave', 'config.json'),
      JSON.stringify({ model: `nope${OSC52}:model` }),
    );
    const home = await tempWorkspaceRoot('taskweave-osc-home-');
    const run = await runCli(['run', '--cwd', workspace, 'hello'], {
      env: { ...ENV, XDG_CONFIG_HOME: home },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('has an unknown provider');
    expect(run.stderr + run.stdout).not.toContain('\u001b');
    expect(run.stderr + run.stdout).not.toContain('\u0007');
  });

  it('serve’s first line names the model without the OSC 52 it carries', async () => {
    const server = await startLlmServer();
    try {
      const workspace = await tempWorkspaceRoot('taskweave-osc-serve-');
      const model = `openai-compatible:x${OSC52}`;
      const child = spawn(
        process.execPath,
        [CLI_PATH, 'serve', '-C', workspace, '--model', model, '--base-url', server.baseUrl],
        { env: { ...process.env, ...ENV } },
      );
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const closed = new Promise((resolve) => child.on('close', resolve));
      const start = Date.now();
      while (
        !output.includes('Ctrl-C stops the server') &&
        child.exitCode === null &&
        Date.now() - start < 20_000
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGTERM');
      await closed;
      expect(output).toContain(`taskweave serve · workspace ${workspace} · model openai-compatible:x`);
      expect(output).not.toContain('\u001b');
      expect(output).not.toContain('\u0007');
    } finally {
      await server.close();
    }
  });
});
