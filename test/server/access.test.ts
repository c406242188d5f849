import { describe, expect, it } from 'vitest';
import { api, startServer, TestClient } from './helpers.js';

describe('who may talk to taskweave serve', () => {
  it('refuses REST calls and WebSocket upgrades without the right token (401); the app shell needs none', async () => {
    const target = await startServer([]);
    expect(await api(target, 'GET', '/api/health', { token: null })).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized' } },
    });
    expect((await api(target, 'GET', '/api/sessions', { token: 'wrong' })).status).toBe(401);
    expect((await api(target, 'GET', '/api/tasks', { token: `${target.token}x` })).status).toBe(401);
    expect((await api(target, 'GET', '/api/nothing-here', { token: null })).status).toBe(401);
    await expect(TestClient.open(target, { token: null })).rejects.toThrow(/401/);
    await expect(TestClient.open(target, { token: 'wrong' })).rejects.toThrow(/401/);
    // The page and its assets carry no secret: the browser gets them without the token, which
    // it never sends (it is in the URL's fragment); the page then sends it with every call.
    const landing = await fetch(`${target.base}/`);
    expect(landing.status).toBe(200);
    const page = await landing.text();
    expect(page).toMatch(/<div id="root">/);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1]!;
    expect((await fetch(`${target.base}${asset}`)).status).toBe(200);
  });

  it('takes the token as `Authorization: Bearer` and as a WebSocket subprotocol value; the URL has it in its fragment', async () => {
    const target = await startServer([]);
    expect(target.server.url).toBe(`http://127.0.0.1:${target.server.port}/#token=${target.token}`);
    expect(await api(target, 'GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(
      (
        await api(target, 'GET', '/api/health', {
          token: null,
          headers: { authorization: `bearer ${target.token}` },
        })
      ).status,
    ).toBe(200);
    // A browser's WebSocket offers `taskweave` and `taskweave.token.<token>`: the server echoes
    // `taskweave`, never the token.
    const client = await TestClient.open(target);
    expect(client.socket.protocol).toBe('taskweave');
    client.send({ type: 'subscribe', session_id: 'ses_nothere1' });
    expect(await client.next((message) => message.type === 'error')).toMatchObject({ code: 'not_found' });
    // A script's client may send the header instead.
    const scripted = await TestClient.open(target, {
      token: null,
      headers: { authorization: `Bearer ${target.token}` },
    });
    expect(scripted.socket.readyState).toBe(scripted.socket.OPEN);
  });

  it('takes no cookie and no ?token= (a cookie reaches every server on 127.0.0.1, whatever its port)', async () => {
    const target = await startServer([]);
    const cookie = { cookie: `taskweave_token=${target.token}` };
    expect((await api(target, 'GET', '/api/sessions', { token: null, headers: cookie })).status).toBe(401);
    await expect(TestClient.open(target, { token: null, headers: cookie })).rejects.toThrow(/401/);
    expect((await api(target, 'GET', `/api/health?token=${target.token}`, { token: null })).status).toBe(401);
    // The old URL's first visit no longer sets a cookie.
    const first = await fetch(`${target.base}/?token=${target.token}`, { redirect: 'manual' });
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
  });

  it('answers a malformed Authorization header, cookie or subprotocol with 401, never 500', async () => {
    const target = await startServer([]);
    const port = target.server.port;
    const host = `127.0.0.1:${port}`;
    const malformed: Record<string, string>[] = [
      { cookie: 'taskweave_token=%E0%A4%A' },
      { cookie: `taskweave_token=${target.token}%` },
      { cookie: '=;;=%;taskweave_token' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Basic ${Buffer.from(`x:${target.token}`).toString('base64')}` },
      { authorization: `Bearer ${target.token} ${target.token}` },
      { authorization: `Bearer ${target.token}%` },
      { authorization: 'Bearer \u00ff\u00fe' },
      { authorization: `Token ${target.token}` },
    ];
    for (const headers of malformed) {
      const answer = await rawGet(port, '/api/health', { host, ...headers });
      expect({ headers, status: answer.status }).toEqual({ headers, status: 401 });
      expect(answer.body).toMatch(/unauthorized/);
    }
    // Upgrades with a broken token protocol or header are refused the same way.
    const malformedUpgrades: Record<string, string>[] = [
      { 'sec-websocket-protocol': 'taskweave, taskweave.token.%' },
      { 'sec-websocket-protocol': 'taskweave.token.' },
      { authorization: 'Bearer', 'sec-websocket-protocol': 'taskweave' },
      { cookie: 'taskweave_token=%' },
    ];
    for (const headers of malformedUpgrades) {
      const answer = await rawGet(port, '/ws', {
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      });
      expect({ headers, status: answer.status }).toEqual({ headers, status: 401 });
    }
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin (cross-site WebSocket hijacking), token or not', async () => {
    const target = await startServer([]);
    const port = target.server.port;
    // fetch does not let a page set Host; an HTTP client can, as a rebinding attacker's browser would send it.
    const rebinding = await rawGet(port, '/api/health', {
      host: `attacker.example:${port}`,
      authorization: `Bearer ${target.token}`,
    });
    expect(rebinding.status).toBe(403);
    expect(rebinding.body).toMatch(/forbidden_host/);
    expect(
      (
        await rawGet(port, '/api/health', {
          host: `localhost:${port}`,
          authorization: `Bearer ${target.token}`,
        })
      ).status,
    ).toBe(200);
    expect(
      await api(target, 'GET', '/api/health', { headers: { origin: 'http://attacker.example' } }),
    ).toMatchObject({ status: 403, body: { error: { code: 'forbidden_origin' } } });
    expect(
      (await api(target, 'GET', '/api/health', { headers: { origin: `http://127.0.0.1:${port}` } })).status,
    ).toBe(200);
    await expect(TestClient.open(target, { headers: { origin: 'http://attacker.example' } })).rejects.toThrow(
      /403/,
    );
    await expect(TestClient.open(target, { headers: { origin: 'null' } })).rejects.toThrow(/403/);
    const sameOrigin = await TestClient.open(target, { headers: { origin: `http://localhost:${port}` } });
    expect(sameOrigin.socket.readyState).toBe(sameOrigin.socket.OPEN);
  });
});

/** A GET with exactly these headers (Host included), on a connection of its own. */
async function rawGet(port: number, path: string, headers: Record<string, string>) {
  const http = await import('node:http');
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, headers, setHost: false, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
