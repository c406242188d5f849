import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgents } from '../../../src/agent/subagents/builtin-agents.js';
import type { SubagentSettings } from '../../../src/agent/subagents/subagent.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { renderSessionExport } from '../../../src/export/export-formats.js';
import { sessionExportSchema } from '../../../src/export/export-schema.js';
import { buildSessionExport } from '../../../src/export/session-export.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import type { ModelScriptInput } from '../../../src/model/script-schema.js';
import { runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';
import { safetyOf } from '../../helpers/safety.js';

const SUBAGENTS: SubagentSettings = { agents: runAgents([]), maxDepth: 1 };

function script(turns: ModelScriptInput['turns'], latencyMs = 0) {
  return { id: 'script:test', model: ScriptModel.fromScript({ latencyMs, turns }) };
}

const delegate = (agent: string, job: string, id?: string) => ({
  name: 'delegate',
  args: { agent, job },
  ...(id ? { id } : {}),
});

type Update = Extract<ServerEvent, { type: 'agent_update' }>;
function updates(events: ServerEvent[], kind: string): Update[] {
  return events.filter(
    (event): event is Update => event.type === 'agent_update' && event.update_type === kind,
  );
}
function childEvents(events: ServerEvent[], callId: string): ServerEvent[] {
  return events.filter((event) => 'parent_call_id' in event && event.parent_call_id === callId);
}

/** The processes whose command line holds `text`. */
async function processesWith(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.replaceAll('\0', ' ').includes(text)) found.push(pid);
  }
  return found;
}

async function workspaceWith(files: Record<string, string>): Promise<string> {
  const root = await tempWorkspaceRoot();
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(root, name), content);
  return root;
}

describe('delegate', () => {
  it('runs two explore children at once: interleaved events, each with its own steps, answers as results', async () => {
    const root = await workspaceWith({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const model = script(
      [
        {
          toolCalls: [
            delegate('explore', 'Look at a.ts', 'call-a'),
            delegate('explore', 'Look at b.ts', 'call-b'),
          ],
        },
        {
          agent: 'explore',
          when: 'Look at a.ts',
          toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }],
        },
        {
          agent: 'explore',
          when: 'Look at b.ts',
          toolCalls: [{ name: 'read_file', args: { path: 'b.ts' } }],
        },
        { agent: 'explore', when: 'Look at a.ts', text: 'a.ts exports a = 1' },
        { agent: 'explore', when: 'Look at b.ts', text: 'b.ts exports b = 2' },
        { text: 'a is 1 and b is 2.' },
      ],
      40,
    );
    const { result, events } = await runWithHarness({ model, workspaceRoot: root, subagents: SUBAGENTS });
    expect(result.status).toBe('completed');
    const started = updates(events, 'subagent_started');
    expect(started.map((event) => 'parent_call_id' in event && event.parent_call_id).sort()).toEqual([
      'call-a',
      'call-b',
    ]);
    const a = childEvents(events, 'call-a');
    const b = childEvents(events, 'call-b');
    // Each child counts its own steps: 1 then 2.
    const steps = (list: ServerEvent[]) =>
      list
        .filter((event) => event.type === 'agent_update' && event.update_type === 'agent_turn_start')
        .map((event) => ('step' in event ? event.step : -1));
    expect(steps(a)).toEqual([1, 2]);
    expect(steps(b)).toEqual([1, 2]);
    expect(a.every((event) => 'agent' in event && event.agent === 'explore')).toBe(true);
    // Interleaved: b's first turn starts before a's last one.
    const firstOfB = events.indexOf(b[0]!);
    const lastOfA = events.indexOf(a.at(-1)!);
    expect(firstOfB).toBeLessThan(lastOfA);
    const results = events.filter((event) => event.type === 'tool_complete' && event.name === 'delegate');
    expect(results.map((event) => event.type === 'tool_complete' && event.result).sort()).toEqual([
      'a.ts exports a = 1',
      'b.ts exports b = 2',
    ]);
    const ended = updates(events, 'subagent_ended');
    expect(ended).toHaveLength(2);
    for (const end of ended) expect(end).toMatchObject({ status: 'completed', steps: 2 });
    // The children's tokens count to the run.
    const childTokens = ended.reduce((sum, end) => sum + ('input_tokens' in end ? end.input_tokens : 0), 0);
    expect(childTokens).toBeGreaterThan(0);
    expect(result.usage.inputTokens).toBeGreaterThan(childTokens);
  });

  it('gives explore only reading tools, and a child no delegate tool (depth 1)', async () => {
    const root = await workspaceWith({ 'a.ts': 'x\n' });
    const model = script([
      { toolCalls: [delegate('explore', 'Try to write', 'call-w')] },
      {
        agent: 'explore',
        toolCalls: [
          { name: 'write_file', args: { path: 'x.txt', content: 'no' } },
          delegate('explore', 'nested'),
        ],
      },
      { agent: 'explore', text: 'I could not write.' },
      { text: 'ok' },
    ]);
    const { result, events, workspace } = await runWithHarness({
      model,
      workspaceRoot: root,
      subagents: SUBAGENTS,
    });
    expect(result.status).toBe('completed');
    const errors = childEvents(events, 'call-w').filter((event) => event.type === 'tool_error');
    expect(errors.map((event) => event.type === 'tool_error' && event.error).join('\n')).toMatch(
      /no tool named "write_file"[\s\S]*no tool named "delegate"/,
    );
    await expect(readFile(path.join(workspace.root, 'x.txt'))).rejects.toThrow();
  });

  it('ends a child at its own step limit; the parent gets the reason and goes on', async () => {
    const root = await workspaceWith({ 'a.ts': 'x\n' });
    const short = runAgents([]).map((agent) =>
      agent.name === 'explore' ? { ...agent, maxSteps: 2 } : agent,
    );
    const model = script([
      { toolCalls: [delegate('explore', 'Loop forever', 'call-l')] },
      { agent: 'explore', toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] },
      { agent: 'explore', toolCalls: [{ name: 'search_code', args: { pattern: 'x' } }] },
      { text: 'The explorer ran out of steps.' },
    ]);
    const { result, events } = await runWithHarness({
      model,
      workspaceRoot: root,
      subagents: { agents: short, maxDepth: 1 },
    });
    expect(result.status).toBe('completed');
    const [ended] = updates(events, 'subagent_ended');
    expect(ended).toMatchObject({
      status: 'max_steps',
      steps: 2,
      reason: 'The step limit of 2 was reached.',
    });
    const call = events.find((event) => event.type === 'tool_error' && event.call_id === 'call-l');
    expect(call).toMatchObject({ error: expect.stringContaining('ended without an answer (max_steps)') });
  });

  it('a general child edits a file under its path lock while an explore child reads it', async () => {
    const root = await workspaceWith({ 'shared.ts': 'export const value = 1;\n' });
    const model = script(
      [
        {
          toolCalls: [
            delegate('general', 'Change value to 2 in shared.ts', 'call-g'),
            delegate('explore', 'Read shared.ts', 'call-e'),
          ],
        },
        {
          agent: 'general',
          when: 'Change value',
          toolCalls: [{ name: 'read_file', args: { path: 'shared.ts' } }],
        },
        {
          agent: 'explore',
          when: 'Read shared.ts',
          toolCalls: [{ name: 'read_file', args: { path: 'shared.ts' } }],
        },
        {
          agent: 'general',
          when: 'Change value',
          toolCalls: [
            {
              name: 'edit_file',
              args: { path: 'shared.ts', edits: [{ find: 'value = 1', replace: 'value = 2' }] },
            },
          ],
        },
        { agent: 'explore', when: 'Read shared.ts', text: 'shared.ts holds value' },
        { agent: 'general', when: 'Change value', text: 'value is now 2' },
        { text: 'done' },
      ],
      20,
    );
    const { result, events, workspace } = await runWithHarness({
      model,
      workspaceRoot: root,
      subagents: SUBAGENTS,
    });
    expect(result.status).toBe('completed');
    expect(await readFile(path.join(workspace.root, 'shared.ts'), 'utf8')).toBe('export const value = 2;\n');
    const edit = childEvents(events, 'call-g').find(
      (event) => event.type === 'tool_complete' && event.name === 'edit_file',
    );
    expect(edit).toBeDefined();
    const read = childEvents(events, 'call-e').find(
      (event) => event.type === 'tool_complete' && event.name === 'read_file',
    );
    // The reader saw the file whole, before or after the edit.
    expect(read?.type === 'tool_complete' && read.result).toMatch(/value = [12];/);
    const generalEnd = updates(events, 'subagent_ended').find(
      (event) => 'agent' in event && event.agent === 'general',
    );
    expect(generalEnd).toMatchObject({ files: ['shared.ts'] });
    const delegated = events.find((event) => event.type === 'tool_complete' && event.call_id === 'call-g');
    expect(delegated).toMatchObject({ result: 'value is now 2\n\nFiles it changed: shared.ts' });
  });

  it('a child asking for approval names itself; the answer reaches it', async () => {
    const root = await workspaceWith({});
    const model = script([
      { toolCalls: [delegate('general', 'Write note.txt', 'call-n')] },
      { agent: 'general', toolCalls: [{ name: 'write_file', args: { path: 'note.txt', content: 'hi' } }] },
      { agent: 'general', text: 'wrote note.txt' },
      { text: 'done' },
    ]);
    const asked: string[] = [];
    const { result, events, workspace } = await runWithHarness({
      model,
      workspaceRoot: root,
      subagents: SUBAGENTS,
      safety: safetyOf({ mode: 'ask', allow: [], deny: [] }, { kind: 'none' }),
      approver: async (request) => {
        asked.push(request.name);
        return { kind: 'approval', decision: 'allow' };
      },
    });
    expect(result.status).toBe('completed');
    expect(asked).toEqual(['write_file']);
    const [approval] = updates(events, 'approval_requested');
    expect(approval).toMatchObject({ agent: 'general', parent_call_id: 'call-n', name: 'write_file' });
    expect(await readFile(path.join(workspace.root, 'note.txt'), 'utf8')).toBe('hi');
  });

  it('a stop of the parent stops its child mid-command, and no process is left', async () => {
    const marker = `${process.pid}${Date.now() % 100000}`;
    const model = script([
      { toolCalls: [delegate('general', 'Run the long command', 'call-s')] },
      { agent: 'general', toolCalls: [{ name: 'run_command', args: { command: `sleep 3${marker}` } }] },
      { agent: 'general', text: 'never reached' },
      { text: 'never reached either' },
    ]);
    let running = 0;
    const { result, events } = await runWithHarness({
      model,
      subagents: SUBAGENTS,
      onEvent: (event, control) => {
        if (event.type === 'tool_progress' || (event.type === 'tool_start' && event.name === 'run_command'))
          setTimeout(async () => {
            running = (await processesWith(`sleep 3${marker}`)).length;
            control.stop();
          }, 300);
      },
    });
    expect(running).toBeGreaterThan(0);
    expect(result.status).toBe('stopped');
    const [ended] = updates(events, 'subagent_ended');
    expect(ended).toMatchObject({ agent: 'general', status: 'stopped' });
    expect(
      updates(events, 'agent_stopped').some((event) => 'agent' in event && event.agent === 'general'),
    ).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await processesWith(`sleep 3${marker}`)).toEqual([]);
  }, 30_000);

  it("matches a child's turns by agent: the parent's next turn, written first, is not the child's", async () => {
    const root = await workspaceWith({ 'a.ts': 'x\n' });
    const model = script([
      { toolCalls: [delegate('explore', 'Look', 'call-o')] },
      { text: 'The parent answers after its child.' },
      { agent: 'explore', text: 'the child answers' },
    ]);
    const { result, events } = await runWithHarness({ model, workspaceRoot: root, subagents: SUBAGENTS });
    expect(result.finalAnswer).toBe('The parent answers after its child.');
    expect(
      events.find((event) => event.type === 'tool_complete' && event.call_id === 'call-o'),
    ).toMatchObject({
      result: 'the child answers',
    });
  });

  it('an unknown agent is an error result naming the agents there are', async () => {
    const model = script([{ toolCalls: [delegate('nobody', 'x', 'call-x')] }, { text: 'ok' }]);
    const { events } = await runWithHarness({ model, subagents: SUBAGENTS });
    expect(events.find((event) => event.type === 'tool_error' && event.call_id === 'call-x')).toMatchObject({
      error: 'There is no agent "nobody". Agents: explore, general.',
    });
  });
});

describe('a session export with subagents', () => {
  it('keeps each child under its delegate call: agent, job, end, steps and the calls it made', async () => {
    const root = await workspaceWith({ 'a.ts': 'export const a = 1;\n' });
    const model = script([
      { toolCalls: [delegate('explore', 'Look at a.ts', 'call-x')] },
      { agent: 'explore', toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] },
      { agent: 'explore', text: 'a is 1' },
      { text: 'a is 1.' },
    ]);
    const { events } = await runWithHarness({ model, workspaceRoot: root, subagents: SUBAGENTS });
    const session = {
      id: 's',
      title: 't',
      goal: 'g',
      workspace: root,
      model: 'script:test',
      status: 'completed',
      createdAt: 0,
      updatedAt: 0,
    };
    const document = buildSessionExport({ session, events });
    expect(sessionExportSchema.parse(document)).toEqual(document);
    const calls = document.timeline.flatMap((entry) => (entry.kind === 'step' ? entry.tool_calls : []));
    expect(calls.find((call) => call.call_id === 'call-x')?.subagent).toMatchObject({
      agent: 'explore',
      job: 'Look at a.ts',
      status: 'completed',
      steps: 2,
      answer: 'a is 1',
      tool_calls: [{ step: 1, name: 'read_file', status: 'ok' }],
    });
    const markdown = renderSessionExport({ session, events, format: 'md' });
    expect(markdown).toContain('Subagent explore · completed · 2 steps');
    expect(markdown).toMatch(/- step 1: read\\?_file \(ok\)/);
  });
});
