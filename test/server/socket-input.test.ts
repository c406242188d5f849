import { describe, expect, it } from 'vitest';
import { MAX_CLIENT_FRAME_BYTES } from '../../src/events/client-messages.js';
import { SLOW_CLIENT_CLOSE_CODE } from '../../src/server/socket/connection.js';
import { nextEvent } from '../runtime/helpers.js';
import { api, is, startServer, TestClient } from './helpers.js';

describe('bad WebSocket input', () => {
  it('answers every kind of invalid message with an error, changes nothing and keeps the connection', async () => {
    const target = await startServer([{ text: 'Hello there.' }]);
    const client = await TestClient.open(target);
    const cases: [unknown, string, RegExp][] = [
      ['not json', 'invalid_json', /not valid JSON/],
      ['[1,2]', 'invalid_message', /JSON object with a string `type`/],
      [{ content: 'no type' }, 'invalid_message', /type/],
      [{ type: 'launch_rockets' }, 'unknown_type', /Unknown message type "launch_rockets"/],
      [{ type: 'chat' }, 'invalid_message', /content/],
      [{ type: 'chat', content: '' }, 'invalid_message', /content is empty/],
      [{ type: 'chat', content: 'x', agent_max_steps: -3 }, 'invalid_message', /agent_max_steps/],
      [{ type: 'chat', content: 'x', loop: 'spiral' }, 'invalid_message', /loop/],
      [{ type: 'chat', content: 'x', surprise: true }, 'invalid_message', /surprise/],
      [{ type: 'agent_control', action: 'explode' }, 'invalid_message', /action/],
      [{ type: 'plan_decision', plan_id: 'p', decision: 'maybe' }, 'invalid_message', /decision/],
      [{ type: 'failure_decision', decision: 'retry' }, 'invalid_message', /request_id/],
      [{ type: 'subscribe' }, 'invalid_message', /session_id/],
      [{ type: 'subscribe', session_id: 'ses_x', after_seq: 1.5 }, 'invalid_message', /after_seq/],
      [{ type: 'subscribe', session_id: 'ses_nothere1' }, 'not_found', /no session/],
      [{ type: 'chat', content: 'x', session_id: 'ses_nothere1' }, 'not_found', /no session/],
      [{ type: 'chat', content: 'x', model: 'openai:gpt-9' }, 'bad_input', /--model openai:gpt-9/],
      [{ type: 'agent_control', action: 'stop' }, 'bad_input', /Which session/],
      [
        { type: 'agent_user_input', content: 'hi', request_id: 'req_nope' },
        'not_found',
        /No request req_nope/,
      ],
      [{ type: 'agent_user_input', content: 'hi' }, 'not_found', /No question is waiting/],
      [{ type: 'plan_decision', plan_id: 'plan_nope', decision: 'approve' }, 'not_found', /plan_nope/],
      [{ type: 'failure_decision', request_id: 'req_nope', decision: 'skip' }, 'not_found', /req_nope/],
      [{ type: 'approval_decision', request_id: 'req_nope', decision: 'allow' }, 'not_found', /req_nope/],
    ];
    for (const [message, code, text] of cases) {
      const before = client.messages.length;
      client.send(message);
      const reply = await client.next(is('error'), { after: before });
      expect(reply, JSON.stringify(message)).toMatchObject({ code, seq: 0 });
      expect(reply.type === 'error' && reply.message, JSON.stringify(message)).toMatch(text);
    }
    // A frame over the limit is refused whole; a binary frame too.
    const before = client.messages.length;
    client.send(JSON.stringify({ type: 'chat', content: 'x'.repeat(MAX_CLIENT_FRAME_BYTES) }));
    expect(await client.next(is('error'), { after: before })).toMatchObject({ code: 'frame_too_large' });
    client.socket.send(Buffer.from([1, 2, 3]));
    expect(await client.next(is('error'), { after: before + 1 })).toMatchObject({ code: 'invalid_json' });

    // Nothing changed: no session, no task. The connection still works.
    expect((await api(target, 'GET', '/api/sessions')).body.sessions).toEqual([]);
    expect((await api(target, 'GET', '/api/tasks')).body.tasks).toEqual([]);
    client.send({ type: 'chat', content: 'say hello' });
    expect(await client.next(is('response_complete'))).toMatchObject({
      status: 'completed',
      final_answer: 'Hello there.',
    });
  });

  it('drops a connection that answers no ping', async () => {
    const target = await startServer([], { socket: { heartbeatMs: 500 } });
    const silent = await TestClient.open(target, { autoPong: false });
    const lively = await TestClient.open(target);
    const closed = await silent.closed;
    expect(closed.code).toBe(1006);
    expect(lively.socket.readyState).toBe(lively.socket.OPEN);
  });

  it('drops a client that does not read instead of buffering without bound; it resubscribes from its last seq', async () => {
    // Five replies writing 20 files of 100 kB each (a reply runs at most 20 calls): 10 MB of tool
    // events, more than the loopback's socket buffers hold, each event well under the server's limit.
    const writes = Array.from({ length: 100 }, (_, index) => ({
      name: 'write_file',
      args: { path: `f${index}.txt`, content: `${index}`.padEnd(100_000, 'x') },
    }));
    const replies = Array.from({ length: 5 }, (_, reply) => ({
      toolCalls: writes.slice(reply * 20, reply * 20 + 20),
    }));
    const target = await startServer([...replies, { text: 'Wrote 100 files.' }], {
      socket: { maxBufferedBytes: 256 * 1024 },
    });
    // Run without a client (the writer would be a slow reader too).
    const finished = nextEvent(target.runtime, (event) => event.type === 'response_complete', 30_000);
    await target.runtime.submit('say many words');
    const sessionId = (await finished).session_id;
    const total = (await target.runtime.sessions.events(sessionId)).length;
    expect(total).toBeGreaterThan(200);

    const slow = await TestClient.open(target);
    // The client stops reading from its socket: what the server sends piles up.
    const raw = (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    slow.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    raw.resume();
    const closed = await slow.closed;
    expect(closed.code).toBe(SLOW_CLIENT_CLOSE_CODE);
    expect(closed.reason).toMatch(/subscribe from your last seq/);
    // The server stopped queueing at its limit: the client got a prefix of the session, in order.
    // (Its first message, the approval mode every client gets on connecting, is not of the session.)
    const ofSession = (client: TestClient) =>
      client.messages.filter((message) => message.session_id === sessionId).map((message) => message.seq);
    const received = ofSession(slow);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(total);
    expect(received).toEqual(received.map((_, index) => index + 1));

    const last = received.at(-1)!;
    const again = await TestClient.open(target, {});
    again.send({ type: 'subscribe', session_id: sessionId, after_seq: total - 3 });
    await again.next((message) => message.seq === total, { timeoutMs: 90_000 });
    expect(ofSession(again)).toEqual([total - 2, total - 1, total]);
    expect(last).toBeLessThan(total);
  });
});
