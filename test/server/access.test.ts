import { describe, expect, it } from 'vitest';
import { api, startServer, TestClient } from './helpers.js';

describe('who may talk to taskweave serve', () => {
  it('refuses REST calls and WebSocket upgrades without the right token (401)', async () => {
    const target = await startServer([]);
    expect(await api(target, 'GET', '/api/health', { token: null })).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized' } },
    });
    expect((await api(target, 'GET', '/api/sessions', { token: 'wrong' })).status).toBe(401);
    expect((await api(target, 'GET', '/api/tasks', { token: `${target.token}x` })).status).toBe(401);
    await expect(TestClient.open(target, { token: null })).rejects.toThrow(/401/);
    await expect(TestClient.open(target, { token: 'wrong' })).rejects.toThrow(/401/);
    // The landing page without a token says what to do.
    const landing = await fetch(`${target.base}/`);
    expect(landing.status).toBe(401);
    expect(await landing.text()).toMatch(/open the URL `taskweave serve` printed/i);
  });

  it('takes the token as a header, as ?token= and as the cookie the URL sets', async () => {
    const target = await startServer([]);
    expect(await api(target, 'GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await api(target, 'GET', `/api/health?token=${target.token}`, { token: null })).status).toBe(200);
    const first = await fetch(target.server.url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^taskweave_token=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const withCookie = { cookie: cookie.split(';')[0]! };
    expect((await api(target, 'GET', '/api/sessions', { token: null, headers: withCookie })).status).toBe(
      200,
    );
    const client = await TestClient.open(target, { token: null, headers: withCookie });
    client.send({ type: 'subscribe', session_id: 'ses_nothere1' });
    expect(await client.next((message) => message.type === 'error')).toMatchObject({ code: 'not_found' });
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

/** A GET with exactly these headers (Host included). */
async function rawGet(port: number, path: string, headers: Record<string, string>) {
  const http = await import('node:http');
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, headers, setHost: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
