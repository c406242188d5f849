import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWorkspace, acpWorkspace } from '../helpers/acp-process.js';

/*
 * The real `taskweave acp` process driven over stdio by the ACP SDK's own client side, as an
 * editor drives it, with the script model.
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

/** Whether a process whose command line holds `marker` still runs (a command the run started). */
function running(marker: string): boolean {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.some((line) => line.includes(marker) && !line.includes('ps -eo'));
}

describe('taskweave acp', () => {
  it('initialize, new session, prompt: text, tool calls with kinds, diffs and command output, end_turn; stdout is only JSON-RPC', async () => {
    const ws = await workspace([
      {
        text: 'Writing the file.',
        toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hello\n' } }],
      },
      {
        toolCalls: [
          { name: 'edit_file', args: { path: 'a.txt', edits: [{ find: 'hello', replace: 'bye' }] } },
        ],
      },
      { toolCalls: [{ name: 'run_command', args: { command: 'cat a.txt' } }] },
      { text: 'Done: a.txt says bye.' },
    ]);
    const agent = ws.start(['--approval', 'auto']);
    const init = await agent.initialize();
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true });
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(false);
    const { sessionId, modes } = await agent.agent.request('session/new', {
      cwd: ws.workspace,
      mcpServers: [],
    });
    expect(modes?.currentModeId).toBe('auto');
    expect(modes?.availableModes.map((mode) => mode.id)).toEqual(['ask', 'edits', 'auto', 'plan-only']);
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'make a.txt say bye' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(readFileSync(path.join(ws.workspace, 'a.txt'), 'utf8')).toBe('bye\n');
    expect(agent.agentText(sessionId)).toBe('Writing the file.Done: a.txt says bye.');
    const calls = agent.updatesOf(sessionId, 'tool_call');
    expect(calls.map((call) => [call.title, call.kind])).toEqual([
      ['Write a.txt', 'edit'],
      ['Edit a.txt', 'edit'],
      ['cat a.txt', 'execute'],
    ]);
    expect(calls[0]?.locations).toEqual([{ path: path.join(ws.workspace, 'a.txt') }]);
    const done = agent
      .updatesOf(sessionId, 'tool_call_update')
      .filter((update) => update.status === 'completed');
    expect(done).toHaveLength(3);
    expect(done[0]?.content?.[0]).toEqual({
      type: 'diff',
      path: path.join(ws.workspace, 'a.txt'),
      oldText: null,
      newText: 'hello\n',
    });
    expect(done[1]?.content?.[0]).toEqual({
      type: 'diff',
      path: path.join(ws.workspace, 'a.txt'),
      oldText: 'hello',
      newText: 'bye',
    });
    expect(JSON.stringify(done[2]?.content)).toContain('bye');
    expect(agent.updatesOf(sessionId, 'usage_update').length).toBeGreaterThan(0);
    expect(agent.nonProtocolLines()).toEqual([]);
    expect((await agent.close()).code).toBe(0);
  });

  it('a permission answered allow-always is not asked again for the next call of its kind; a rejected one changes nothing', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'write_file', args: { path: 'one.txt', content: '1\n' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'two.txt', content: '2\n' } }] },
      { toolCalls: [{ name: 'run_command', args: { command: 'touch rejected.txt' } }] },
      { text: 'Finished.' },
    ]);
    const agent = ws.start(['--approval', 'ask']);
    agent.answerPermission = (request) => (request.toolCall.kind === 'edit' ? 'always' : 'deny');
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write two files and touch one' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(agent.permissions.map((request) => [request.toolCall.title, request.toolCall.kind])).toEqual([
      ['Write one.txt', 'edit'],
      ['touch rejected.txt', 'execute'],
    ]);
    expect(agent.permissions[0]?.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
    ]);
    expect(readFileSync(path.join(ws.workspace, 'two.txt'), 'utf8')).toBe('2\n');
    expect(existsSync(path.join(ws.workspace, 'rejected.txt'))).toBe(false);
    // The editor saw the asked call pending, then its end.
    const rejected = agent.permissions[1]?.toolCall.toolCallId;
    const updates = agent
      .updatesOf(sessionId, 'tool_call_update')
      .filter((update) => update.toolCallId === rejected);
    expect(updates.at(-1)?.status).toBe('failed');
    await agent.close();
  });

  it('session/cancel mid-command stops the command and the prompt ends cancelled', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 37.25 && touch late.txt' } }] },
      { text: 'never' },
    ]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const prompt = agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'wait' }],
    });
    await agent.until(() => agent.updatesOf(sessionId, 'tool_call').length > 0);
    await agent.until(() => running('sleep 37.25'));
    const started = Date.now();
    await agent.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(running('sleep 37.25')).toBe(false);
    expect(existsSync(path.join(ws.workspace, 'late.txt'))).toBe(false);
    await agent.close();
  });

  it('a plan is asked as a permission and shown as entries whose status follows its tasks', async () => {
    const task = (id: string, after: string[] = []) => ({
      id,
      title: `Task ${id}`,
      description: id,
      depends_on: after,
    });
    const ws = await workspace([
      {
        text: 'Planned.',
        toolCalls: [{ name: 'plan_actions', args: { tasks: [task('t1'), task('t2', ['t1'])] } }],
      },
      { task: 't1', toolCalls: [{ name: 'write_file', args: { path: 't1.txt', content: '1\n' } }] },
      { task: 't1', toolCalls: [{ name: 'task_completed', args: { summary: 't1 done' } }] },
      { task: 't2', toolCalls: [{ name: 'task_completed', args: { summary: 't2 done' } }] },
      { text: 'All done.' },
    ]);
    const agent = ws.start(['--approval', 'auto', '--plan', 'always']);
    agent.answerPermission = (request) =>
      request.options.find((option) => option.optionId === 'approve')?.optionId;
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'do two things' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]?.toolCall.title).toBe('Approve the plan (2 tasks)');
    const plans = agent
      .updatesOf(sessionId, 'plan')
      .map((plan) => plan.entries.map((entry) => entry.status).join(','));
    expect(plans[0]).toBe('pending,pending');
    expect(plans).toContain('in_progress,pending');
    expect(plans).toContain('completed,in_progress');
    expect(plans.at(-1)).toBe('completed,completed');
    const last = agent.updatesOf(sessionId, 'plan').at(-1);
    expect(last?.entries[1]?._meta).toEqual({
      taskweave: { task_id: 't2', depends_on: ['t1'], state: 'completed' },
    });
    await agent.close();
  });
});
