import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startLlmServer } from '../helpers/llm-server.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const KEY = 'sk-compatible-taskweave-test-key-0123456789';
const MODEL = 'openai-compatible:test-model';

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

/**
 * A workspace whose config chooses the model and its server, the user having accepted that
 * for this workspace (see cli-workspace-model.test.ts): what is left is the key.
 */
async function acceptedWorkspace(baseUrl: string) {
  const workspace = await realpath(await tempWorkspaceRoot('taskweave-trust-'));
  const configHome = await tempWorkspaceRoot('taskweave-config-home-');
  const workspaceConfig = path.join(workspace, '.taskweave', 'config.json');
  const userConfig = path.join(configHome, 'taskweave', 'config.json');
  await writeJson(workspaceConfig, { model: MODEL, baseUrl });
  const accepted = { workspaceModels: [{ workspace, model: MODEL, baseUrl }] };
  await writeJson(userConfig, accepted);
  return { workspace, configHome, workspaceConfig, userConfig, accepted };
}

describe("a workspace config cannot send the user's API key to a server it names", () => {
  it('refused (exit 2, naming the file and how to allow it) until the user config trusts the URL', async () => {
    const server = await startLlmServer();
    try {
      const { workspace, configHome, workspaceConfig, userConfig, accepted } = await acceptedWorkspace(
        server.baseUrl,
      );
      const env = { OPENAI_COMPATIBLE_API_KEY: KEY, XDG_CONFIG_HOME: configHome, TASKWEAVE_MODEL: '' };

      const refused = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(workspaceConfig);
      expect(refused.stderr).toContain('OPENAI_COMPATIBLE_API_KEY');
      expect(refused.stderr).toContain(`"trustedBaseUrls": ["${server.baseUrl}"]`);
      expect(server.requests).toHaveLength(0);

      // The workspace cannot trust its own URL.
      await writeJson(workspaceConfig, {
        model: MODEL,
        baseUrl: server.baseUrl,
        trustedBaseUrls: [server.baseUrl],
      });
      const selfTrusted = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
      expect(selfTrusted.code).toBe(2);
      expect(selfTrusted.stderr).toMatch(/sets "trustedBaseUrls"; only your own config/);
      expect(server.requests).toHaveLength(0);

      // The user trusts it in their own config: the key goes there.
      await writeJson(workspaceConfig, { model: MODEL, baseUrl: server.baseUrl });
      await writeJson(userConfig, { ...accepted, trustedBaseUrls: [server.baseUrl] });
      server.reply({ text: 'Hello.' });
      const allowed = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await server.close();
    }
  });

  it('an accepted workspace model that sends no key (no key set) is not asked about again', async () => {
    const server = await startLlmServer();
    try {
      const { workspace, configHome } = await acceptedWorkspace(server.baseUrl);
      server.reply({ text: 'Hello.' });
      const run = await runCli(['run', '--cwd', workspace, 'say hello'], {
        env: { XDG_CONFIG_HOME: configHome, TASKWEAVE_MODEL: '', OPENAI_COMPATIBLE_API_KEY: '' },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
