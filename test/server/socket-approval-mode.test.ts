import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentUpdateOf, ServerEvent } from '../../src/events/registry.js';
import { is, startServer, TestClient } from './helpers.js';

const write = (file: string) => ({
  toolCalls: [{ name: 'write_file', args: { path: file, content: file } }],
});
const modeOf = (message: ServerEvent) => (message.type === 'approval_mode' ? message.mode : undefined);

describe('switching the approval mode over the WebSocket (set_approval_mode)', () => {
  it('every client learns the mode on connecting and on each switch; the next tool call follows it', async () => {
    const target = await startServer([write('asked.txt'), write('unasked.txt'), { text: 'Both written.' }], {
      approval: 'ask',
    });
    const first = await TestClient.open(target);
    const second = await TestClient.open(target);
    for (const client of [first, second])
      expect(await client.next(is('approval_mode'))).toMatchObject({
        mode: 'ask',
        sandbox: 'off',
        network: false,
        seq: 0,
        session_id: '',
      });

    first.send({ type: 'chat', content: 'write two files' });
    const asked = await first.next<AgentUpdateOf<'approval_requested'> & ServerEvent>(
      is('approval_requested'),
    );
    expect(asked).toMatchObject({ name: 'write_file' });

    // The second client switches to edits: both clients hear it, the server applies it.
    let seen = [first.messages.length, second.messages.length];
    second.send({ type: 'set_approval_mode', mode: 'edits' });
    for (const [index, client] of [first, second].entries())
      expect(modeOf(await client.next(is('approval_mode'), { after: seen[index] }))).toBe('edits');
    expect(target.runtime.approvalMode).toBe('edits');

    // The call already asked still waits for its answer; the next file change runs unasked.
    first.send({ type: 'approval_decision', request_id: asked.request_id, decision: 'allow' });
    expect(await first.next(is('response_complete'))).toMatchObject({
      status: 'completed',
      final_answer: 'Both written.',
    });
    expect(first.kinds().filter((kind) => kind === 'approval_requested')).toHaveLength(1);
    expect(existsSync(path.join(target.runtime.workspace.root, 'asked.txt'))).toBe(true);
    expect(existsSync(path.join(target.runtime.workspace.root, 'unasked.txt'))).toBe(true);

    // A bad mode is refused and changes nothing.
    seen = [first.messages.length, second.messages.length];
    first.send({ type: 'set_approval_mode', mode: 'yolo' });
    expect(await first.next(is('error'), { after: seen[0] })).toMatchObject({ code: 'invalid_message' });
    expect(target.runtime.approvalMode).toBe('edits');
    first.send({ type: 'set_approval_mode', mode: 'plan-only' });
    expect(modeOf(await second.next(is('approval_mode'), { after: seen[1] }))).toBe('plan-only');
    // A client that connects later learns the mode now in force.
    const third = await TestClient.open(target);
    expect(modeOf(await third.next(is('approval_mode')))).toBe('plan-only');
  });
});
