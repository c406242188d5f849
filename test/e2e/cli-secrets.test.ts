import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { startLlmServer } from '../helpers/llm-server.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

describe("the providers' API keys stay out of commands and of what is stored and shown", () => {
  for (const sandbox of ['off', 'workspace-write']) {
    it(`a command (sandbox ${sandbox}) finds no key in any process's environment; a key it prints is redacted`, async () => {
      const suffix = randomBytes(8).toString('hex');
      const key = `sk-taskweave-test-${suffix}`;
      const workspace = await tempWorkspaceRoot('taskweave-secrets-');
      // The file holds the key, as a .env file would: what cat prints must be redacted.
      await writeFile(path.join(workspace, 'leak.env'), `OPENAI_API_KEY=${key}\n`);
      // The command looks for the key in the environment of every process it can read
      // (/proc/$PPID/environ included), without spelling it out itself.
      const search = [
        `needle="sk-taskweave-test-"'${suffix}'`,
        'found=$(grep -a -l -F "$needle" /proc/[0-9]*/environ 2>/dev/null | wc -l)',
        'echo "environments holding the key: $found"',
        'echo "own variable: [$(printenv OPENAI_API_KEY || echo unset)]"',
        'cat leak.env',
      ].join('; ');
      const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
        turns: [{ toolCalls: [{ name: 'run_command', args: { command: search } }] }, { text: 'Looked.' }],
      });
      const run = await runCli(
        [
          'run',
          '--json',
          '--approval',
          'auto',
          '--sandbox',
          sandbox,
          '--model',
          `script:${script}`,
          '--cwd',
          workspace,
          'look',
        ],
        { env: { OPENAI_API_KEY: key } },
      );
      expect(run.code, run.stderr).toBe(0);
      const result = parseJsonLines(run.stdout).find((event) => event.type === 'tool_complete');
      expect(result?.type === 'tool_complete' && result.result).toContain('environments holding the key: 0');
      expect(run.stdout).toContain('own variable: [unset]');
      expect(run.stdout).toContain('OPENAI_API_KEY=[OPENAI_API_KEY redacted]');
      expect(run.stdout).not.toContain(key);
      const shown = await runCli([
        'sessions',
        'show',
        'last',
        '--events',
        '--full',
        '--json',
        '--cwd',
        workspace,
      ]);
      expect(shown.stdout).toContain('[OPENAI_API_KEY redacted]');
      expect(shown.stdout).not.toContain(key);
    });
  }

  it('the key held in memory still reaches the provider the user chose', async () => {
    const key = `sk-taskweave-test-${randomBytes(8).toString('hex')}`;
    const server = await startLlmServer();
    try {
      server.reply({ text: 'Hello.' });
      const workspace = await tempWorkspaceRoot('taskweave-secrets-');
      const run = await runCli(
        [
          'run',
          '--model',
          'anthropic:claude-test',
          '--base-url',
          server.baseUrl,
          '--cwd',
          workspace,
          'say hello',
        ],
        { env: { ANTHROPIC_API_KEY: key } },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests[0]?.headers['x-api-key']).toBe(key);
    } finally {
      await server.close();
    }
  });
});
