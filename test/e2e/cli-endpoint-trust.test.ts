import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startLlmServer } from '../helpers/llm-server.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const KEY = 'sk-ant-taskweave-test-key-0123456789';

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

describe("a workspace config cannot send the user's API key to a server it names", () => {
  it('refused (exit 2, naming the file and how to allow it) until the user config trusts the URL', async () => {
    const server = await startLlmServer();
    try {
      const workspace = await tempWorkspaceRoot('taskweave-trust-');
      const configHome = await tempWorkspaceRoot('taskweave-config-home-');
      const workspaceConfig = path.join(workspace, '.taskweave', 'config.json');
      await writeJson(workspaceConfig, { model: 'anthropic:claude-test', baseUrl: server.baseUrl });
      const env = { ANTHROPIC_API_KEY: KEY, XDG_CONFIG_HOME: configHome, TASKWEAVE_MODEL: '' };

      const refused = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(workspaceConfig);
      expect(refused.stderr).toContain('ANTHROPIC_API_KEY');
      expect(refused.stderr).toContain(`"trustedBaseUrls": ["${server.baseUrl}"]`);
      expect(server.requests).toHaveLength(0);

      // The workspace cannot trust its own URL.
      await writeJson(workspaceConfig, {
        model: 'anthropic:claude-test',
        baseUrl: server.baseUrl,
        trustedBaseUrls: [server.baseUrl],
      });
      const selfTrusted = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
      expect(selfTrusted.code).toBe(2);
      expect(selfTrusted.stderr).toMatch(/sets "trustedBaseUrls"; only your own config/);
      expect(server.requests).toHaveLength(0);

      // The user trusts it in their own config: the key goes there.
      await writeJson(workspaceConfig, { model: 'anthropic:claude-test', baseUrl: server.baseUrl });
      await writeJson(path.join(configHome, 'taskweave', 'config.json'), {
        trustedBaseUrls: [server.baseUrl],
      });
      server.reply({ text: 'Hello.' });
      const allowed = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    } finally {
      await server.close();
    }
  });

  it('a workspace base URL for a model that sends no key (no key set) is not asked about', async () => {
    const server = await startLlmServer();
    try {
      const workspace = await tempWorkspaceRoot('taskweave-trust-');
      const configHome = await tempWorkspaceRoot('taskweave-config-home-');
      await writeJson(path.join(workspace, '.taskweave', 'config.json'), {
        model: 'openai-compatible:local',
        baseUrl: server.baseUrl,
      });
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
