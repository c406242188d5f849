import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWorkspace, acpWorkspace } from '../helpers/acp-process.js';
import { CLI_PATH } from '../helpers/cli.js';

/*
 * Sessions of the real `taskweave acp` process over their life: resume, close, the empty ones a
 * list leaves out, the usage totals an editor shows.
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

function running(marker: string): boolean {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.some((line) => line.includes(marker) && !line.includes('ps -eo'));
}

describe('taskweave acp sessions', () => {
  it('session/resume continues a stored session in a new process without sending its history again', async () => {
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
    const firstTotals = first.updatesOf(sessionId, 'usage_update').at(-1)?._meta;
    await first.close();

    // The second process's model: its script starts afresh.
    await writeFile(
      ws.script,
      JSON.stringify({
        turns: [
          { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b\n' } }] },
          { text: 'Wrote b.txt too.' },
        ],
      }),
    );
    const second = ws.start(['--approval', 'auto']);
    const init = await second.initialize();
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ resume: {}, close: {} });
    const resumed = await second.agent.request('session/resume', { sessionId, cwd: ws.workspace });
    expect(resumed.modes?.currentModeId).toBe('auto');
    // Nothing of the history is sent (a load would send the goal, the calls and the text).
    const kinds = () =>
      second.updates.filter((note) => note.sessionId === sessionId).map((note) => note.update.sessionUpdate);
    expect(kinds().filter((kind) => kind !== 'available_commands_update')).toEqual([]);
    const { stopReason } = await second.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'now b.txt' }],
    });
    expect(stopReason).toBe('end_turn');
    expect(second.agentText(sessionId)).toBe('Wrote b.txt too.');
    expect(second.updatesOf(sessionId, 'user_message_chunk')).toEqual([]);
    // The usage totals go on from the first process's, not from zero.
    const totals = second.updatesOf(sessionId, 'usage_update').at(-1)?._meta as {
      taskweave: { input_tokens: number; output_tokens: number };
    };
    const before = (firstTotals as { taskweave: { input_tokens: number } }).taskweave.input_tokens;
    expect(totals.taskweave.input_tokens).toBeGreaterThan(before);
    const detail = JSON.parse(
      execFileSync(
        process.execPath,
        [CLI_PATH, 'sessions', 'show', sessionId, '--json', '--cwd', ws.workspace],
        {
          encoding: 'utf8',
        },
      ),
    ) as { runs: unknown[] };
    expect(detail.runs).toHaveLength(2);
    await expect(
      second.agent.request('session/resume', { sessionId: 'ses_nosuchsession', cwd: ws.workspace }),
    ).rejects.toMatchObject({ code: -32002 });
    await second.close();
  });

  it('session/close stops the session running command, ends its prompt cancelled and forgets the session', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 41.75 && touch late.txt' } }] },
      { text: 'never' },
    ]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const prompt = agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'wait' }],
    });
    await agent.until(() => running('sleep 41.75'));
    await agent.agent.request('session/close', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(running('sleep 41.75')).toBe(false);
    await expect(
      agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }),
    ).rejects.toMatchObject({ code: -32002 });
    // Closing it again is answered "not found" (the SDK's client side resolves that as {}: read the wire).
    await agent.agent.request('session/close', { sessionId });
    expect(JSON.parse(agent.stdoutLines.at(-1) ?? '{}').error).toMatchObject({ code: -32002 });
    // The process goes on serving other sessions.
    const other = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    expect(other.sessionId).not.toBe(sessionId);
    expect((await agent.close()).code).toBe(0);
  });

  it('a session opened but never prompted is not listed (by the editor or sessions list); it still loads', async () => {
    const ws = await workspace([{ text: 'Hello.' }]);
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const empty = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    const used = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    await agent.agent.request('session/prompt', {
      sessionId: used.sessionId,
      prompt: [{ type: 'text', text: 'say hello' }],
    });
    const listed = await agent.agent.request('session/list', { cwd: ws.workspace });
    expect(listed.sessions.map((session) => session.sessionId)).toEqual([used.sessionId]);
    const cli = JSON.parse(
      execFileSync(process.execPath, [CLI_PATH, 'sessions', 'list', '--json', '--cwd', ws.workspace], {
        encoding: 'utf8',
      }),
    ) as { id?: string; session?: { id: string } }[];
    const ids = JSON.stringify(cli);
    expect(ids).toContain(used.sessionId);
    expect(ids).not.toContain(empty.sessionId);
    await agent.agent.request('session/load', {
      sessionId: empty.sessionId,
      cwd: ws.workspace,
      mcpServers: [],
    });
    await agent.close();
  });

  it('usage_update: used is the last call, cost and tokens the session running totals', async () => {
    const ws = await workspace([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
      { text: 'Done.' },
    ]);
    await mkdir(path.join(ws.workspace, '.taskweave'), { recursive: true });
    await writeFile(
      path.join(ws.workspace, '.taskweave', 'config.json'),
      JSON.stringify({ prices: { [`script:${ws.script}`]: { input: 2, output: 8 } } }),
    );
    const agent = ws.start(['--approval', 'auto']);
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', { cwd: ws.workspace, mcpServers: [] });
    await agent.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write a.txt' }],
    });
    const usages = agent.updatesOf(sessionId, 'usage_update');
    expect(usages).toHaveLength(2);
    const [one, two] = usages.map((usage) => ({
      used: usage.used,
      cost: usage.cost?.amount ?? 0,
      ...(usage._meta as { taskweave: { input_tokens: number; output_tokens: number } }).taskweave,
    }));
    expect(one && two).toBeTruthy();
    if (one === undefined || two === undefined) return;
    expect(one.used).toBe(one.input_tokens + one.output_tokens);
    expect(two.used).toBeLessThan(two.input_tokens + two.output_tokens);
    expect(two.input_tokens - one.input_tokens + (two.output_tokens - one.output_tokens)).toBe(two.used);
    expect(two.cost).toBeCloseTo((two.input_tokens * 2 + two.output_tokens * 8) / 1e6, 8);
    expect(two.cost).toBeGreaterThan(one.cost);
    await agent.close();
  });
});
