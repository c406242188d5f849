import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { api, startServer } from './helpers.js';

/** A Content-Security-Policy as its directives: name → sources. */
function directives(policy: string | null): Record<string, string[]> {
  const parsed: Record<string, string[]> = {};
  for (const directive of (policy ?? '').split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) parsed[name] = sources;
  }
  return parsed;
}

describe('the headers of taskweave serve', () => {
  it('serves the page with a Content-Security-Policy that loads nothing from elsewhere and cannot be framed', async () => {
    const target = await startServer([]);
    const page = await fetch(`${target.base}/`);
    expect(page.status).toBe(200);
    const policy = directives(page.headers.get('content-security-policy'));
    expect(policy).toMatchObject({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'none'"],
    });
    // The page talks to its own server only: REST and the same-origin WebSocket.
    expect(policy['connect-src']).toEqual(["'self'", `ws://127.0.0.1:${target.server.port}`]);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('sends them with assets, API answers and refusals too; a foreign Host never reaches the policy', async () => {
    const target = await startServer([]);
    for (const answer of [
      await api(target, 'GET', '/api/health'),
      await api(target, 'GET', '/api/health', { token: null }),
      await api(target, 'GET', '/api/health', { headers: { origin: 'http://attacker.example' } }),
    ]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    }
    const rebinding = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(
          {
            host: '127.0.0.1',
            port: target.server.port,
            path: '/',
            headers: { host: 'attacker.example; script-src *' },
            setHost: false,
            agent: false,
          },
          resolve,
        )
        .on('error', reject),
    );
    rebinding.resume();
    expect(rebinding.statusCode).toBe(403);
    expect(directives(String(rebinding.headers['content-security-policy']))['connect-src']).toEqual([
      "'self'",
    ]);
  });
});
