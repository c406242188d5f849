import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLlmServer } from '../helpers/llm-server.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const KEY = 'sk-ant-taskweave-test-key-0123456789';
const QUESTION = 'Trust this URL? [y/N]';
/** A key of the user's own config that trusting a URL must keep. */
const USER_SETTINGS = { maxSteps: 17, prices: { 'anthropic:claude-test': { input: 1, output: 2 } } };

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

/** A workspace whose config sends the anthropic model to `baseUrl`, and a user config home of its own. */
async function setup(baseUrl: string) {
  const workspace = await tempWorkspaceRoot('taskweave-trust-pty-');
  const home = await tempWorkspaceRoot('taskweave-trust-home-');
  const configHome = path.join(home, '.config');
  const workspaceFile = path.join(workspace, '.taskweave', 'config.json');
  const userFile = path.join(configHome, 'taskweave', 'config.json');
  await writeJson(workspaceFile, { model: 'anthropic:claude-test', baseUrl });
  await writeJson(userFile, USER_SETTINGS);
  // HOME and XDG_CONFIG_HOME both point into the temp folder: the real user config is never read or written.
  const env = {
    ANTHROPIC_API_KEY: KEY,
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    TASKWEAVE_MODEL: '',
    NO_COLOR: '1',
  };
  const args = ['run', '--approval', 'auto', '--cwd', workspace, 'say hello'];
  return { workspaceFile, userFile, env, args };
}

describe('a workspace base URL that would receive the API key, on a terminal', () => {
  it('y trusts it in the user config (other keys kept), the key goes there, and the next run does not ask', async () => {
    const server = await startLlmServer();
    try {
      const { workspaceFile, userFile, env, args } = await setup(server.baseUrl);
      server.reply({ text: 'Hello.' });
      const run = PtyRun.start(args, { env });
      await run.waitFor(QUESTION);
      expect(run.text()).toContain(
        `The workspace config ${workspaceFile} sends your anthropic key to ${server.baseUrl}. ${QUESTION}`,
      );
      expect(server.requests).toHaveLength(0);
      run.type('y\r');
      const code = await run.exited;
      expect(code, run.text()).toBe(0);
      expect(run.text()).toContain(`Trusted ${server.baseUrl}: added to "trustedBaseUrls" in ${userFile}.`);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
      expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({
        ...USER_SETTINGS,
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
