import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModel } from '../../../src/config/resolve-model.js';
import { coreTools } from '../../../src/tools/registry.js';
import { type LlmServer, startLlmServer } from '../../helpers/llm-server.js';
import { eventKinds, runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases = [
  {
    provider: 'openai-compatible',
    name: 'openai-compatible:test-model',
    env: {},
    route: '/v1/chat/completions',
  },
  {
    provider: 'anthropic',
    name: 'anthropic:claude-test',
    env: { ANTHROPIC_API_KEY: 'test-key' },
    route: '/v1/messages',
  },
] as const;

describe.each(cases)('taskweave through the real $provider provider', ({ name, env, route }) => {
  it('runs a tool from the streamed reply and finishes with the second reply', async () => {
    server = await startLlmServer();
    server.reply(
      {
        text: 'I will write the file.',
        toolCalls: [{ name: 'write_file', args: { path: 'notes/todo.md', content: '- ship it\n' } }],
      },
      { text: 'Wrote notes/todo.md.' },
    );
    const root = await tempWorkspaceRoot();
    const model = await resolveModel({ model: name, baseUrl: server.baseUrl, cwd: root, env: { ...env } });
    const { result, events } = await runWithHarness({
      model,
      tools: coreTools,
      workspaceRoot: root,
      goal: 'write a todo',
    });

    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Wrote notes/todo.md.');
    expect(await readFile(path.join(root, 'notes/todo.md'), 'utf8')).toBe('- ship it\n');
    expect(eventKinds(events)).toContain('tool_complete');
    expect(result.usage.inputTokens).toBeGreaterThan(0);

    expect(server.requests.map((request) => request.path)).toEqual([route, route]);
    const first = JSON.stringify(server.requests[0]!.body);
    expect(first).toContain('write_file');
    expect(first).toContain('run_command');
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain('notes/todo.md');
    expect(second).toContain('Created notes/todo.md');
  });

  it('retries a 429 with Retry-After and then goes on', async () => {
    server = await startLlmServer();
    server.reply({ error: { status: 429, message: 'slow down', retryAfter: 0 } }, { text: 'Nothing to do.' });
    const root = await tempWorkspaceRoot();
    const model = await resolveModel({ model: name, baseUrl: server.baseUrl, cwd: root, env: { ...env } });
    const { result, events } = await runWithHarness({ model, workspaceRoot: root });
    expect(result.status).toBe('completed');
    expect(eventKinds(events)).toContain('agent_retry');
    expect(server.requests).toHaveLength(2);
  });
});
