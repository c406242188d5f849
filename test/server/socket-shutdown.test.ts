import { afterEach, describe, expect, it } from 'vitest';
import { nextEvent } from '../runtime/helpers.js';
import { startServer } from './helpers.js';
import { openStalledClient, type StalledClient } from './stalled-client.js';

const stalled: StalledClient[] = [];
afterEach(() => {
  for (const client of stalled.splice(0)) client.destroy();
});

describe('stopping taskweave serve', () => {
  it('does not wait for a WebSocket client that stopped reading with its buffers full', {
    timeout: 60_000,
  }, async () => {
    // Five replies writing 20 files of 100 kB each: 10 MB of tool events, more than the loopback's
    // socket buffers hold. The slow-client drop is set out of reach: this is about stopping.
    const writes = Array.from({ length: 100 }, (_, index) => ({
      name: 'write_file',
      args: { path: `f${index}.txt`, content: `${index}`.padEnd(100_000, 'x') },
    }));
    const replies = Array.from({ length: 5 }, (_, reply) => ({
      toolCalls: writes.slice(reply * 20, reply * 20 + 20),
    }));
    const target = await startServer([...replies, { text: 'Wrote 100 files.' }], {
      socket: { maxBufferedBytes: 1024 * 1024 * 1024 },
    });
    const finished = nextEvent(target.runtime, (event) => event.type === 'response_complete', 30_000);
    await target.runtime.submit('write many files');
    const sessionId = (await finished).session_id;

    const client = await openStalledClient(target.server.port, { Authorization: `Bearer ${target.token}` });
    stalled.push(client);
    // The server floods it with the session's 10 MB; it reads none of it.
    client.send(JSON.stringify({ type: 'subscribe', session_id: sessionId, after_seq: 0 }));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(client.socket.destroyed).toBe(false);

    const stopping = Date.now();
    await target.server.close();
    expect(Date.now() - stopping).toBeLessThan(2_500);
    // Its connection was cut, not left open: reading what is left ends with the end of the stream.
    const ended = new Promise((resolve) => client.socket.once('close', resolve));
    client.socket.on('data', () => {});
    client.socket.resume();
    await ended;
  });
});
