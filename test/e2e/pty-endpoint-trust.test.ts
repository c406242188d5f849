import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLlmServer } from '../helpers/llm-server.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const KEY = 'sk-compatible-taskweave-test-key-0123456789';
const MODEL = 'openai-compatible:test-model';
const QUESTION = 'Trust this URL? [y/N]';
/** Keys of the user's own config that trusting a URL must keep. */
const USER_SETTINGS = { maxSteps: 17, prices: { [MODEL]: { input: 1, output: 2 } } };

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

/**
 * A workspace whose config sends the model to `baseUrl` (accepted for this workspace, see
 * pty-workspace-model.test.ts), the key in the environment, and a user config home of its own.
 */
async function setup(baseUrl: string) {
  const workspace = await realpath(await tempWorkspaceRoot('taskweave-trust-pty-'));
  const home = await tempWorkspaceRoot('taskweave-trust-home-');
  const configHome = path.join(home, '.config');
  const workspaceFile = path.join(workspace, '.taskweave', 'config.json');
  const userFile = path.join(configHome, 'taskweave', 'config.json');
  await writeJson(workspaceFile, { model: MODEL, baseUrl });
  const userSettings = { ...USER_SETTINGS, workspaceModels: [{ workspace, model: MODEL, baseUrl }] };
  await writeJson(userFile, userSettings);
  // HOME and XDG_CONFIG_HOME both point into the temp folder: the real user config is never read or written.
  const env = {
    OPENAI_COMPATIBLE_API_KEY: KEY,
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    TASKWEAVE_MODEL: '',
    NO_COLOR: '1',
  };
  const args = ['run', '--approval', 'auto', '--cwd', workspace, 'say hello'];
  return { workspaceFile, userFile, env, args, userSettings };
}

describe('a workspace base URL that would receive the API key, on a terminal', () => {
  it('y trusts it in the user config (other keys kept), the key goes there, and the next run does not ask', async () => {
    const server = await startLlmServer();
    try {
      const { workspaceFile, userFile, env, args, userSettings } = await setup(server.baseUrl);
      server.reply({ text: 'Hello.' });
      const run = PtyRun.start(args, { env });
      await run.waitFor(QUESTION);
      // The URL and its origin each on a line of their own.
      expect(run.text()).toContain(
        `The workspace config ${workspaceFile} sends your openai-compatible key to:\n  URL:    ${server.baseUrl}\n  origin: ${server.url}\n${QUESTION}`,
      );
      expect(server.requests).toHaveLength(0);
      run.type('y\r');
      const code = await run.exited;
      expect(code, run.text()).toBe(0);
      expect(run.text()).toContain(`Trusted ${server.baseUrl}: added to "trustedBaseUrls" in ${userFile}.`);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({
        ...userSettings,
        trustedBaseUrls: [server.baseUrl],
      });

      server.reply({ text: 'Hello again.' });
      const again = await PtyRun.run(args, { env });
      expect(again.code, again.text).toBe(0);
      expect(again.text).not.toContain(QUESTION);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('n, Enter alone, Ctrl-C or Ctrl-D keeps the refusal (exit 2) and leaves the user config as it was', async () => {
    const server = await startLlmServer();
    try {
      const { userFile, env, args } = await setup(server.baseUrl);
      const before = await readFile(userFile, 'utf8');
      for (const keys of ['n\r', '\r', '\u0003', '\u0004']) {
        const run = PtyRun.start(args, { env });
        await run.waitFor(QUESTION);
        run.type(keys);
        const code = await run.exited;
        expect(code, run.text()).toBe(2);
        expect(run.text()).toContain(`"trustedBaseUrls": ["${server.baseUrl}"]`);
        expect(await readFile(userFile, 'utf8')).toBe(before);
      }
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
