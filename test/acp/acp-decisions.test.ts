import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWorkspace, acpWorkspace } from '../helpers/acp-process.js';

/*
 * What the real `taskweave acp` process asks an editor and how its turns end: a failed task's
 * decision, MCP servers the editor hands over, a refusal.
 */

let current: AcpWorkspace | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

async function workspace(turns: unknown[]): Promise<AcpWorkspace> {
  current = await acpWorkspace(turns);
  return current;
}

/** The reference "everything" MCP server from the npm registry, as an editor hands it over (stdio). */
const EVERYTHING: McpServer = {
  name: 'everything',
  command: process.execPath,
  args: [path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  env: [],
};

describe('taskweave acp decisions', () => {
  it('a task whose check fails is a permission request with retry, skip, revise and abort; retry runs it again', async () => {
    const plan = {
      tasks: [
        { id: 'a', title: 'Write a.txt', description: 'write a.txt', depends_on: [], check: 'test -f a.txt' },
        { id: 'b', title: 'Write b.txt', description: 'write b.txt', depends_on: ['a'] },
      ],
    };
    const ws = await workspace([
      { toolCalls: [{ name: 'plan_actions', args: plan }] },
      // The first attempt says done without writing: the check fails, and the model gives up.
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'done (not really)' } }] },
      { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the check keeps failing' } }] },
      {
        task: 'a',
        toolCalls: [
          { name: 'write_file', args: { path: 'a.txt', content: 'a\n' } },
          { name: 'task_completed', args: { summary: 'wrote a.txt' } },
        ],
      },
      {
        task: 'b',
        toolCalls: [
          { name: 'write_file', args: { path: 'b.txt', content: 'b\n' } },
          { name: 'task_completed', args: { summary: 'wrote b.txt' } },
        ],
      },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Both written.' } }] },
    ]);
    const agent = ws.start(['--approval', 'auto', '--plan', 'always']);
    agent.answerPermission = (request) => {
      const ids = request.options.map((option) => option.optionId);
      return ids.includes('approve') ? 'approve' : ids.includes('retry') ? 'retry' : undefined;
    };
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write a.txt then b.txt' }],
    });
    expect(stopReason).toBe('end_turn');
    const failure = agent.permissions.find((request) => request.toolCall.title === 'Task a failed');
    expect(failure?.options.map((option) => option.optionId)).toEqual(
      expect.arrayContaining(['retry', 'skip', 'revise', 'abort']),
    );
    expect(failure?._meta).toMatchObject({ taskweave: { kind: 'failure' } });
    expect(JSON.stringify(failure?.toolCall.content)).toContain('the check keeps failing');
    expect(JSON.stringify(failure?.toolCall.content)).toContain('Waiting on it: b');
    // The check's failure reached the editor as the task's check call, failed.
    const check = agent.updatesOf(sessionId, 'tool_call').find((call) => call.title === 'test -f a.txt');
    expect(check?.kind).toBe('execute');
    // While it waited, the plan showed the task failed (in _meta) and b not started.
    const states = agent
      .updatesOf(sessionId, 'plan')
      .map((update) =>
        update.entries
          .map((entry) => (entry._meta as { taskweave: { state: string } }).taskweave.state)
          .join(','),
      );
    expect(states).toContain('failed,pending');
    expect(states.at(-1)).toBe('completed,completed');
    expect(readFileSync(path.join(ws.workspace, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(path.join(ws.workspace, 'b.txt'), 'utf8')).toBe('b\n');
    await agent.close();
  });

  it('abort (or no choice) on a failed task ends the run; b never runs', async () => {
    const ws = await workspace([
      {
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                { id: 'a', title: 'Write a.txt', description: 'a', depends_on: [], check: 'test -f a.txt' },
                { id: 'b', title: 'Write b.txt', description: 'b', depends_on: ['a'] },
              ],
            },
          },
        ],
      },
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'done (not really)' } }] },
      { task: 'b', toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b\n' } }] },
    ]);
    const agent = ws.start(['--approval', 'auto', '--plan', 'always']);
    agent.answerPermission = (request) =>
      request.options.some((option) => option.optionId === 'approve') ? 'approve' : 'abort';
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write a.txt then b.txt' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(agent.permissions.map((request) => request._meta)).toEqual([
      { taskweave: expect.objectContaining({ kind: 'plan' }) },
      { taskweave: expect.objectContaining({ kind: 'failure' }) },
    ]);
    expect(agent.agentText(sessionId)).toContain('The run failed');
    expect(() => readFileSync(path.join(ws.workspace, 'b.txt'))).toThrow();
    await agent.close();
  });

  it('an MCP server handed over in session/new is connected; its tool is asked about, then called', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'everything__echo', args: { message: 'hello from the editor' } }] },
      { text: 'Echoed.' },
    ]);
    const agent = ws.start(['--approval', 'ask']);
    agent.answerPermission = () => 'allow';
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', {
      cwd: ws.workspace,
      mcpServers: [EVERYTHING],
    });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'echo something' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(agent.permissions.map((request) => request.toolCall.rawInput)).toEqual([
      { message: 'hello from the editor' },
    ]);
    const done = agent
      .updatesOf(sessionId, 'tool_call_update')
      .find((update) => update.status === 'completed');
    expect(JSON.stringify(done?.content)).toContain('hello from the editor');
    expect(agent.agentText(sessionId)).toBe('Echoed.');
    await agent.close();
  });

  it('an MCP server the editor hands over that is not stdio or HTTP is refused with invalid params', async () => {
    const ws = await workspace([{ text: 'unused' }]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    await expect(
      agent.agent.request('session/new', {
        cwd: ws.workspace,
        mcpServers: [{ type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] }],
      }),
    ).rejects.toMatchObject({ code: -32602 });
    await agent.close();
  });

  it('a model whose replies the content filter stops ends the turn with refusal', async () => {
    const filtered = { text: '', finishReason: 'content-filter' };
    const ws = await workspace([filtered, filtered, filtered]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'something the filter stops' }],
    });
    expect(stopReason).toBe('refusal');
    await agent.close();
  });

  it('a provider error whose words mention content-filter ends end_turn: only the finish reason is a refusal', async () => {
    const ws = await workspace([{ error: { status: 400, message: 'content-filter settings are invalid' } }]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'something' }],
    });
    expect(agent.agentText(sessionId)).toContain('content-filter settings are invalid');
    expect(stopReason).toBe('end_turn');
    await agent.close();
  });

  it('a run that fails for another reason ends end_turn, not refusal', async () => {
    const ws = await workspace([{ text: '', finishReason: 'length' }, { text: '' }, { text: '' }]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'something' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(agent.agentText(sessionId)).toContain('The run failed');
    await agent.close();
  });
});
