import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { is, startServer, TestClient } from './helpers.js';

describe('background commands over the WebSocket (stop_background_command)', () => {
  it('stops a running one (its end event comes back); an unknown or ended one is an error', async () => {
    const target = await startServer(
      [
        { toolCalls: [{ name: 'run_command', args: { command: 'echo up; sleep 60', background: true } }] },
        { text: 'Started.' },
      ],
      { approval: 'auto' },
    );
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'start it' });
    const started = await client.next<ServerEvent & { command_id: string }>(is('background_started'));
    expect(started.command_id).toBe('bg1');
    const done = await client.next<ServerEvent & { session_id: string }>(is('response_complete'));
    const sessionId = done.session_id;

    const before = client.messages.length;
    client.send({ type: 'stop_background_command', session_id: sessionId, command_id: 'bg1' });
    expect(await client.next(is('background_ended'), { after: before })).toMatchObject({
      command_id: 'bg1',
      state: 'stopped',
      stopped_by: 'the user',
    });
    const again = client.messages.length;
    client.send({ type: 'stop_background_command', session_id: sessionId, command_id: 'bg1' });
    expect(await client.next(is('error'), { after: again })).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('bg1 has already ended'),
    });
    const unknown = client.messages.length;
    client.send({ type: 'stop_background_command', session_id: sessionId, command_id: 'bg7' });
    expect(await client.next(is('error'), { after: unknown })).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('no background command bg7'),
    });
  }, 30_000);
});
