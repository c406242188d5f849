import { readFileSync } from 'node:fs';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWorkspace, acpWorkspace } from '../helpers/acp-process.js';

/*
 * docs/acp-recording.jsonl is what an editor author reads as the exchange: replayed against the
 * real `taskweave acp` (the same prompt and answers, the script model behind), the agent must
 * still send the same messages in the same order, so the recording cannot go stale unseen.
 */

const RECORDING = new URL('../../docs/acp-recording.jsonl', import.meta.url);

interface Recorded {
  dir: 'editor→agent' | 'agent→editor';
  message: Record<string, unknown> & { method?: string; params?: Record<string, unknown>; result?: unknown };
}

let current: AcpWorkspace | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

/** A message as far as a recording can fix it: kinds, titles, statuses, text; not ids, paths or token counts. */
function shape(message: Recorded['message']): string {
  const params = message.params ?? {};
  if (message.method === 'session/update') {
    const update = params.update as Record<string, unknown>;
    const kind = String(update.sessionUpdate);
    if (kind === 'agent_message_chunk') return `${kind} ${JSON.stringify(update.content)}`;
    if (kind === 'tool_call' || kind === 'tool_call_update')
      return `${kind} ${[update.title, update.kind, update.status].filter((value) => value !== undefined).join(' ')}`;
    return kind;
  }
  if (message.method === 'session/request_permission') {
    const toolCall = params.toolCall as Record<string, unknown>;
    const options = (params.options as { optionId: string }[]).map((option) => option.optionId);
    return `permission ${toolCall.title} [${options.join(' ')}]`;
  }
  if (message.method !== undefined) return message.method;
  const result = message.result as Record<string, unknown> | undefined;
  return result && 'stopReason' in result ? `stopReason ${result.stopReason}` : 'result';
}

describe('the recorded ACP session (docs/acp-recording.jsonl)', () => {
  it('replayed against the real taskweave acp, the agent sends the same messages in the same order', async () => {
    const recorded = readFileSync(RECORDING, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Recorded);
    const prompt = recorded.find((entry) => entry.message.method === 'session/prompt')?.message.params;
    const answers = recorded
      .filter((entry) => entry.dir === 'editor→agent' && entry.message.result !== undefined)
      .map((entry) => (entry.message.result as { outcome: { optionId: string } }).outcome.optionId);
    current = await acpWorkspace([
      {
        text: 'I will write the greeting.',
        toolCalls: [{ name: 'write_file', args: { path: 'hello.txt', content: 'hello\n' } }],
      },
      { toolCalls: [{ name: 'run_command', args: { command: 'cat hello.txt' } }] },
      { text: 'hello.txt says hello.' },
    ]);
    const agent = current.start();
    agent.answerPermission = () => answers.shift();
    await agent.initialize();
    const { sessionId } = await agent.agent.request('session/new', {
      cwd: current.workspace,
      mcpServers: [],
    });
    const { stopReason } = await agent.agent.request('session/prompt', {
      sessionId,
      prompt: (prompt?.prompt ?? []) as ContentBlock[],
    });
    expect(stopReason).toBe('end_turn');
    const sent = agent.stdoutLines.map((line) => shape(JSON.parse(line) as Recorded['message']));
    const expected = recorded
      .filter((entry) => entry.dir === 'agent→editor')
      .map((entry) => shape(entry.message));
    expect(sent).toEqual(expected);
    expect(answers).toEqual([]);
    await agent.close();
  });
});
