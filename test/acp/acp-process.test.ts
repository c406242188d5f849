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
    expect(Date.now() - started).toBeLessThan(20_000);
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

  it('session/load of a finished session replays its history as updates, in a new process', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
      { text: 'Wrote a.txt.' },
    ]);
    const first = ws.start(['--approval', 'auto']);
    await first.initialize();
    const { sessionId } = await first.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    await first.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write a.txt' }],
    });
    await first.close();

    const second = ws.start(['--approval', 'auto']);
    await second.initialize();
    const listed = await second.agent.request('session/list', { cwd: ws.workspace });
    expect(listed.sessions.map((session) => session.sessionId)).toContain(sessionId);
    const loaded = await second.agent.request('session/load', {
      sessionId,
      cwd: ws.workspace,
      mcpServers: [],
    });
    expect(loaded?.modes?.currentModeId).toBe('auto');
    const kinds = second.updates
      .filter((note) => note.sessionId === sessionId)
      .map((note) => note.update.sessionUpdate);
    expect(kinds.slice(0, 2)).toEqual(['user_message_chunk', 'usage_update']);
    expect(kinds).toContain('tool_call');
    const goal = second.updatesOf(sessionId, 'user_message_chunk')[0]?.content;
    expect(goal).toEqual({ type: 'text', text: 'write a.txt' });
    expect(second.agentText(sessionId)).toBe('Wrote a.txt.');
    expect(second.updatesOf(sessionId, 'tool_call_update').at(-1)?.content?.[0]).toMatchObject({
      type: 'diff',
      newText: 'a\n',
    });
    await expect(
      second.agent.request('session/load', {
        sessionId: 'ses_nosuchsession',
        cwd: ws.workspace,
        mcpServers: [],
      }),
    ).rejects.toMatchObject({ code: -32002 });
    await second.close();
  });

  it('a malformed line gets a JSON-RPC parse error, bad params an invalid-params error; the connection goes on', async () => {
    const ws = await workspace([{ text: 'Still here.' }]);
    const agent = ws.start();
    await agent.initialize();
    agent.child.stdin.write('this is not json\n');
    await agent.until(() => agent.stdoutLines.some((line) => line.includes('-32700')));
    const parseError = JSON.parse(agent.stdoutLines.find((line) => line.includes('-32700')) ?? '{}');
    expect(parseError).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    await expect(agent.agent.request('session/new', { mcpServers: [] } as never)).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      agent.agent.request('session/new', { cwd: 'relative/path', mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    await expect(agent.agent.request('no/such/method', {})).rejects.toMatchObject({ code: -32601 });
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hi' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(agent.agentText(sessionId)).toBe('Still here.');
    await agent.close();
  });

  it('the editor closing the pipe mid-run stops the run and its command; the process exits and leaves nothing running', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 41.75 && touch late.txt' } }] },
      { text: 'never' },
    ]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    void agent.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
      .catch(() => {});
    await agent.until(() => running('sleep 41.75'));
    const started = Date.now();
    const exit = await agent.close();
    expect(exit.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(running('sleep 41.75')).toBe(false);
    expect(existsSync(path.join(ws.workspace, 'late.txt'))).toBe(false);
  });

  it('a question ends the turn as a message when the editor has no forms; the next prompt answers it and the run goes on', async () => {
    const ws = await workspace([
      {
        when: 'The user answered: blue',
        toolCalls: [{ name: 'write_file', args: { path: 'colour.txt', content: 'blue\n' } }],
      },
      { when: 'The user answered: blue', text: 'Wrote the colour.' },
      { toolCalls: [{ name: 'request_input', args: { question: 'Which colour?' } }] },
    ]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const first = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write my colour' }],
    });
    expect(first.stopReason).toBe('end_turn');
    expect(agent.agentText(sessionId)).toBe('Which colour?');
    const second = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'blue' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(readFileSync(path.join(ws.workspace, 'colour.txt'), 'utf8')).toBe('blue\n');
    expect(agent.agentText(sessionId)).toBe('Which colour?Wrote the colour.');
    await agent.close();
  });

  it('a question is an elicitation form when the editor offers forms', async () => {
    const ws = await workspace([
      { when: 'The user answered: green', text: 'Green it is.' },
      { toolCalls: [{ name: 'request_input', args: { question: 'Which colour?' } }] },
    ]);
    const asked: string[] = [];
    const agent = ws.start(['--approval', 'auto'], {
      clientCapabilities: { elicitation: { form: {} } },
      onElicitation: (request) => {
        asked.push(request.message);
        return { action: 'accept', content: { answer: 'green' } };
      },
    });
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'pick a colour' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(asked).toEqual(['Which colour?']);
    expect(agent.agentText(sessionId)).toBe('Green it is.');
    await agent.close();
  });

  it('session/set_mode switches the approval mode: auto-edit writes files unasked', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'write_file', args: { path: 'unasked.txt', content: 'x\n' } }] },
      { text: 'Written.' },
    ]);
    const agent = ws.start(['--approval', 'ask']);
    agent.answerPermission = () => 'deny';
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    await agent.agent.request('session/set_mode', { sessionId, modeId: 'edits' });
    expect(agent.updatesOf(sessionId, 'current_mode_update').at(-1)?.currentModeId).toBe('edits');
    await expect(
      agent.agent.request('session/set_mode', { sessionId, modeId: 'yolo' }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    expect(agent.permissions).toEqual([]);
    expect(readFileSync(path.join(ws.workspace, 'unasked.txt'), 'utf8')).toBe('x\n');
    await agent.close();
  });
});
