import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainHttpFetch } from '../../src/model/http-fetch.js';

/** A real server on 127.0.0.1: what each path answers. */
function startServer(): Promise<{
  server: Server;
  url: string;
  received: { headers: Record<string, unknown>; body: string }[];
}> {
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      if (request.url === '/stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'x-served-by': 'test' });
        response.write('data: first\n\n');
        // The second part only after the client has read the first: it must stream.
        setTimeout(() => response.end('data: second\n\n'), 150);
      } else if (request.url === '/gzip') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(JSON.stringify({ compressed: true })));
      } else if (request.url === '/moved') {
        response.writeHead(302, { location: '/empty' });
        response.end();
      } else if (request.url === '/empty') {
        response.writeHead(204);
        response.end();
      } else if (request.url === '/slow') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('started');
      } else if (request.url === '/hang') {
        // Never answers.
      } else {
        response.writeHead(404, 'Nothing Here', { 'content-type': 'text/plain' });
        response.end('no such path');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }),
    ),
  );
}

describe('fetch over node:http for a model server on plain http', () => {
  let served: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    served = await startServer();
  });
  afterAll(() => {
    served.server.closeAllConnections();
    served.server.close();
  });

  it('sends the method, headers and body, and streams the answer as it comes', async () => {
    const response = await plainHttpFetch(`${served.url}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-served-by')).toBe('test');
    expect(served.received.at(-1)).toMatchObject({
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"model":"m"}',
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: first\n\n');
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += decoder.decode(part.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('answers status, status text and body of an error as fetch does', async () => {
    const mine = await plainHttpFetch(`${served.url}/missing`);
    const theirs = await fetch(`${served.url}/missing`);
    expect([mine.status, mine.statusText, mine.ok, await mine.text()]).toEqual([
      theirs.status,
      theirs.statusText,
      theirs.ok,
      await theirs.text(),
    ]);
  });

  it('decompresses a compressed answer, follows a redirect, and gives no body for 204', async () => {
    expect(await (await plainHttpFetch(`${served.url}/gzip`)).json()).toEqual({ compressed: true });
    const moved = await plainHttpFetch(`${served.url}/moved`);
    expect(moved.status).toBe(204);
    expect(moved.body).toBeNull();
  });

  it('rejects as fetch does: a refused connection, an abort before and after the answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await plainHttpFetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    const theirs = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe((theirs as Error).message);
    expect(((refused as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');

    const early = new AbortController();
    const hanging = plainHttpFetch(`${served.url}/hang`, { signal: early.signal });
    setTimeout(() => early.abort(), 50);
    const aborted = await hanging.catch((error: unknown) => error);
    expect((aborted as Error).name).toBe('AbortError');

    const late = new AbortController();
    const slow = await plainHttpFetch(`${served.url}/slow`, { signal: late.signal });
    const reading = slow.text();
    late.abort();
    await expect(reading).rejects.toThrow();
  });

  it('leaves no listener on a signal that many requests share (no leak warning in a long run)', async () => {
    const shared = new AbortController();
    for (let index = 0; index < 20; index++) {
      await (await plainHttpFetch(`${served.url}/missing`, { signal: shared.signal })).text();
      await (await plainHttpFetch(`${served.url}/empty`, { signal: shared.signal })).text();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('leaves https and a Request to the global fetch', async () => {
    // No server speaks TLS there: the global fetch's failure, not node:http's.
    const error = await plainHttpFetch(`https://127.0.0.1:1/`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    const viaRequest = await plainHttpFetch(new Request(`${served.url}/missing`));
    expect(viaRequest.status).toBe(404);
  });
});
