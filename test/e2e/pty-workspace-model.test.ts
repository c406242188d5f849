import { spawn } from 'node:child_process';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { startLlmServer } from '../helpers/llm-server.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const QUESTION = 'Use it for this workspace? [y/N]';
/** An OSC 52 clipboard write, as a hostile model name carries it. */
const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';

/** No key and no model from the environment the tests run in; no colours. */
const CLEAN_ENV = {
  TASKWEAVE_MODEL: '',
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  GEMINI_API_KEY: '',
  OPENAI_COMPATIBLE_API_KEY: '',
  TASKWEAVE_BASE_URL: '',
  NO_COLOR: '1',
};

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

async function repository(workspaceConfig: unknown) {
  const workspace = await realpath(await tempWorkspaceRoot('taskweave-ws-model-pty-'));
  const home = await tempWorkspaceRoot('taskweave-ws-model-home-');
  const configHome = path.join(home, '.config');
  const workspaceFile = path.join(workspace, '.taskweave', 'config.json');
  const userFile = path.join(configHome, 'taskweave', 'config.json');
  await writeJson(workspaceFile, workspaceConfig);
  const env = { ...CLEAN_ENV, HOME: home, XDG_CONFIG_HOME: configHome };
  return { workspace, workspaceFile, userFile, env, args: ['run', '--cwd', workspace, 'say hello'] };
}

describe('a model only the workspace config chooses, on a terminal', { timeout: 90_000 }, () => {
  it('is asked once, showing model, URL and origin on lines of their own; y remembers it for this workspace', async () => {
    const server = await startLlmServer();
    try {
      const { workspace, workspaceFile, userFile, env, args } = await repository({
        model: 'openai-compatible:x',
        baseUrl: server.baseUrl,
      });
      server.reply({ text: 'Hello.' });
      const run = PtyRun.start(args, { env });
      await run.waitFor(QUESTION);
      expect(run.text()).toContain(
        `The workspace config ${workspaceFile} chooses the model:\n  model:  openai-compatible:x\n  URL:    ${server.baseUrl}\n  origin: ${server.url}\nYour goal and the files taskweave reads go there.\n${QUESTION}`,
      );
      expect(server.requests).toHaveLength(0);
      run.type('y\r');
      expect(await run.exited, run.text()).toBe(0);
      expect(run.text()).toContain(`Remembered for ${workspace} in ${userFile}.`);
      expect(server.requests).toHaveLength(1);
      expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({
        workspaceModels: [{ workspace, model: 'openai-compatible:x', baseUrl: server.baseUrl }],
      });

      server.reply({ text: 'Hello again.' });
      const again = await PtyRun.run(args, { env });
      expect(again.code, again.text).toBe(0);
      expect(again.text).not.toContain(QUESTION);
      expect(server.requests).toHaveLength(2);

      // A changed URL is a new choice: asked again.
      await writeJson(workspaceFile, { model: 'openai-compatible:x', baseUrl: `${server.url}/other/v1` });
      const changed = PtyRun.start(args, { env });
      await changed.waitFor(QUESTION);
      changed.type('n\r');
      expect(await changed.exited).toBe(2);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('n, Enter or Ctrl-C keeps the refusal (exit 2): no request, nothing remembered', async () => {
    const server = await startLlmServer();
    try {
      const { userFile, env, args } = await repository({
        model: 'openai-compatible:x',
        baseUrl: server.baseUrl,
      });
      for (const keys of ['n\r', '\r', '\u0003']) {
        const run = PtyRun.start(args, { env });
        await run.waitFor(QUESTION);
        run.type(keys);
        expect(await run.exited, run.text()).toBe(2);
      }
      expect(server.requests).toHaveLength(0);
      await expect(readFile(userFile, 'utf8')).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('a baseUrl whose fragment holds an erase-line and a fake question is refused, never asked about', async () => {
    const server = await startLlmServer();
    try {
      const fake =
        '\u001b[2K\r\u001b[1AThe workspace config sends your key to https://api.openai.com/v1. Trust this URL? [y/N] ';
      const { workspaceFile, env, args } = await repository({
        model: 'openai-compatible:x',
        baseUrl: `${server.baseUrl}#${fake}`,
      });
      const run = PtyRun.start(args, { env: { ...env, OPENAI_COMPATIBLE_API_KEY: 'sk-secret' } });
      run.type('y\r');
      expect(await run.exited, run.text()).toBe(2);
      // Wrapped between words at 80 columns: compared with its rows joined.
      expect(run.text().replace(/\s+/g, ' ')).toContain(
        `The config file ${workspaceFile} is not valid: baseUrl: not a usable base URL`,
      );
      expect(run.text()).not.toContain('[y/N]');
      expect(run.bytes()).not.toContain('\u001b[2K');
      expect(run.bytes()).not.toContain('\u001b[1A');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('config strings reach the terminal stripped', { timeout: 90_000 }, () => {
  it('an OSC 52 in the workspace config’s model name is in no byte of the question, the run header, serve’s first line or the error', async () => {
    const server = await startLlmServer();
    try {
      const model = `openai-compatible:x${OSC52}`;
      const { workspace, userFile, env, args } = await repository({ model, baseUrl: server.baseUrl });
      // Without a terminal: the error names the model, stripped.
      const refused = await runCli(args, { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('model:  openai-compatible:x');
      expect(refused.stderr + refused.stdout).not.toContain('\u001b');
      expect(refused.stderr + refused.stdout).not.toContain('\u0007');

      // On a terminal: the question, and once accepted the run header.
      server.reply({ text: 'Hello.' });
      const run = PtyRun.start(args, { env });
      await run.waitFor(QUESTION);
      run.type('y\r');
      expect(await run.exited, run.text()).toBe(0);
      expect(run.text()).toContain('openai-compatible:x');
      expect(run.bytes()).not.toContain('\u001b]52');
      expect(run.bytes()).not.toContain('\u0007');
      expect(JSON.parse(await readFile(userFile, 'utf8')).workspaceModels[0].model).toBe(model);

      // serve's first line names the (accepted) model.
      const serve = spawn(process.execPath, [CLI_PATH, 'serve', '-C', workspace], {
        env: { ...process.env, ...env },
      });
      let output = '';
      serve.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      serve.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const start = Date.now();
      while (
        !output.includes('Ctrl-C stops the server') &&
        Date.now() - start < 20_000 &&
        serve.exitCode === null
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      const closed = new Promise((resolve) => serve.on('close', resolve));
      serve.kill('SIGTERM');
      await closed;
      expect(output).toContain(`taskweave serve · workspace ${workspace} · model openai-compatible:x`);
      expect(output).not.toContain('\u001b');
      expect(output).not.toContain('\u0007');
    } finally {
      await server.close();
    }
  });
});
