import { createServer as createNetServer, type Server } from 'node:net';
import { APICallError } from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTransientError, RETRY_BASE_ENV, retryAfterMs, withRetry } from '../../src/model/retry.js';

function httpError(status: number, message: string, headers?: Record<string, string>): APICallError {
  return new APICallError({
    message,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
  });
}

/** A function that fails with the given errors in turn, then returns 'ok'; counts its calls. */
function failing(errors: unknown[]) {
  const calls: number[] = [];
  const fn = async (attempt: number) => {
    calls.push(attempt);
    const error = errors[calls.length - 1];
    if (error !== undefined) throw error;
    return 'ok';
  };
  return { fn, calls };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('withRetry', () => {
  it('retries 429 up to 5 tries in all, then throws the last error', async () => {
    const errors = [1, 2, 3, 4, 5, 6].map((n) => httpError(429, `rate limited #${n}`));
    const { fn, calls } = failing(errors);
    const retries: number[] = [];
    await expect(
      withRetry(fn, { baseDelayMs: 1, onRetry: (info) => retries.push(info.attempt) }),
    ).rejects.toThrow('rate limited #5');
    expect(calls).toEqual([1, 2, 3, 4, 5]);
    expect(retries).toEqual([1, 2, 3, 4]);
  });

  it('retries 5xx, 408 and 409 and returns the first success', async () => {
    const { fn, calls } = failing([
      httpError(503, 'overloaded'),
      httpError(500, 'oops'),
      httpError(408, 'timeout'),
      httpError(409, 'conflict'),
    ]);
    expect(await withRetry(fn, { baseDelayMs: 1 })).toBe('ok');
    expect(calls).toHaveLength(5);
  });

  it('respects maxAttempts', async () => {
    const { fn, calls } = failing([httpError(500, 'a'), httpError(500, 'b'), httpError(500, 'c')]);
    await expect(withRetry(fn, { baseDelayMs: 1, maxAttempts: 2 })).rejects.toThrow('b');
    expect(calls).toHaveLength(2);
  });

  it('retries a real connection reset, then succeeds', async () => {
    let connections = 0;
    const server = createNetServer((socket) => {
      connections++;
      socket.once('data', () => {
        if (connections === 1) socket.resetAndDestroy();
        else socket.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello');
      });
    });
    const port = await listen(server);
    try {
      const retried: unknown[] = [];
      const body = await withRetry(async () => (await fetch(`http://127.0.0.1:${port}/`)).text(), {
        baseDelayMs: 1,
        onRetry: (info) => retried.push(info.error),
      });
      expect(body).toBe('hello');
      expect(retried).toHaveLength(1);
      expect(retried[0]).toMatchObject({ cause: { code: 'ECONNRESET' } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([400, 401, 403, 404, 422])('does not retry %i and keeps the provider message', async (status) => {
    const error = httpError(status, `provider says ${status}`);
    const { fn, calls } = failing([error]);
    const caught = await withRetry(fn, { baseDelayMs: 1 }).catch((thrown: unknown) => thrown);
    expect(caught).toBe(error);
    expect(calls).toHaveLength(1);
  });

  it('does not retry plain errors', async () => {
    const { fn, calls } = failing([new Error('bug')]);
    await expect(withRetry(fn, { baseDelayMs: 1 })).rejects.toThrow('bug');
    expect(calls).toHaveLength(1);
  });

  it('doubles the delay with each retry, within the jitter', async () => {
    const { fn } = failing([httpError(500, 'a'), httpError(500, 'b'), httpError(500, 'c')]);
    const delays: number[] = [];
    await withRetry(fn, { baseDelayMs: 20, onRetry: (info) => delays.push(info.delayMs) });
    expect(delays).toHaveLength(3);
    const [first = 0, second = 0, third = 0] = delays;
    expect(first).toBeGreaterThanOrEqual(15);
    expect(first).toBeLessThanOrEqual(25);
    expect(second).toBeGreaterThanOrEqual(30);
    expect(second).toBeLessThanOrEqual(50);
    expect(third).toBeGreaterThanOrEqual(60);
    expect(third).toBeLessThanOrEqual(100);
  });

  it('caps the delay at maxDelayMs', async () => {
    const { fn } = failing([httpError(500, 'a'), httpError(500, 'b')]);
    const delays: number[] = [];
    await withRetry(fn, { baseDelayMs: 40, maxDelayMs: 30, onRetry: (info) => delays.push(info.delayMs) });
    expect(delays).toEqual([30, 30]);
  });

  it('waits for Retry-After (seconds) instead of the backoff', async () => {
    const { fn } = failing([httpError(429, 'slow down', { 'retry-after': '1' })]);
    const delays: number[] = [];
    const started = performance.now();
    expect(await withRetry(fn, { baseDelayMs: 1, onRetry: (info) => delays.push(info.delayMs) })).toBe('ok');
    expect(delays).toEqual([1000]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('honours a Retry-After longer than the backoff cap', async () => {
    const { fn } = failing([httpError(429, 'slow down', { 'retry-after-ms': '60' })]);
    const delays: number[] = [];
    await withRetry(fn, { baseDelayMs: 1, maxDelayMs: 20, onRetry: (info) => delays.push(info.delayMs) });
    expect(delays).toEqual([60]);
  });

  it('gives up at once, with the provider message, when Retry-After asks for more than it waits', async () => {
    const { fn, calls } = failing([
      httpError(429, 'quota exhausted for the hour', { 'retry-after': '3600' }),
    ]);
    await expect(withRetry(fn, { baseDelayMs: 1 })).rejects.toThrow('quota exhausted for the hour');
    expect(calls).toHaveLength(1);
  });

  it('ends the wait at once on abort and rethrows the abort', async () => {
    const { fn, calls } = failing([httpError(503, 'overloaded')]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const caught = await withRetry(fn, { baseDelayMs: 10_000, signal: controller.signal }).catch(
      (thrown: unknown) => thrown,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(caught).toBe(controller.signal.reason);
    expect(caught).toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(1);
  });

  it('does not start when the signal is already aborted', async () => {
    const { fn, calls } = failing([]);
    await expect(withRetry(fn, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(calls).toHaveLength(0);
  });

  it(`takes the default base delay from ${RETRY_BASE_ENV}`, async () => {
    vi.stubEnv(RETRY_BASE_ENV, '8');
    const { fn } = failing([httpError(500, 'a')]);
    const delays: number[] = [];
    await withRetry(fn, { onRetry: (info) => delays.push(info.delayMs) });
    expect(delays[0]).toBeGreaterThanOrEqual(6);
    expect(delays[0]).toBeLessThanOrEqual(10);
  });

  it('waits about a second by default', async () => {
    vi.stubEnv(RETRY_BASE_ENV, '');
    const { fn } = failing([httpError(500, 'a')]);
    const controller = new AbortController();
    const delays: number[] = [];
    const onRetry = (info: { delayMs: number }) => {
      delays.push(info.delayMs);
      controller.abort();
    };
    await expect(withRetry(fn, { signal: controller.signal, onRetry })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(delays[0]).toBeGreaterThanOrEqual(750);
    expect(delays[0]).toBeLessThanOrEqual(1250);
  });
});

describe('isTransientError', () => {
  it.each([408, 409, 429, 500, 502, 503, 529])('is true for HTTP %i', (status) => {
    expect(isTransientError(httpError(status, 'x'))).toBe(true);
  });

  it.each([400, 401, 403, 404, 413, 422])('is false for HTTP %i', (status) => {
    expect(isTransientError(httpError(status, 'x'))).toBe(false);
  });

  it('is true for a refused connection, as fetch reports it', async () => {
    const server = createNetServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TypeError);
    expect(isTransientError(error)).toBe(true);
  });

  it('is true for a connection reset (RST) mid-request, as fetch reports it', async () => {
    const server = createNetServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const port = await listen(server);
    try {
      const error = await fetch(`http://127.0.0.1:${port}/`).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNRESET' } });
      expect(isTransientError(error)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is true for a socket the server closed mid-request (UND_ERR_SOCKET)', async () => {
    const server = createNetServer((socket) => socket.once('data', () => socket.destroy()));
    const port = await listen(server);
    try {
      const error = await fetch(`http://127.0.0.1:${port}/`).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'UND_ERR_SOCKET' } });
      expect(isTransientError(error)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is true for a stream cut off mid-body ("terminated")', async () => {
    const server = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\npartial');
        setTimeout(() => socket.destroy(), 20);
      });
    });
    const port = await listen(server);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      const error = await response.text().catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ message: 'terminated' });
      expect(isTransientError(error)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each(['ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET'])('is true for %s anywhere in the cause chain', (code) => {
    const root = Object.assign(new Error(code), { code });
    const wrapped = new APICallError({
      message: 'Cannot connect to API',
      url: 'http://127.0.0.1',
      requestBodyValues: {},
      cause: new TypeError('fetch failed', { cause: root }),
    });
    expect(isTransientError(wrapped)).toBe(true);
  });

  it('is false for plain errors, strings and aborts', () => {
    expect(isTransientError(new Error('fetch failed'))).toBe(false);
    expect(isTransientError('ECONNRESET')).toBe(false);
    expect(isTransientError(new DOMException('aborted', 'AbortError'))).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(httpError(429, 'x', { 'retry-after': '7' }))).toBe(7000);
    expect(retryAfterMs(httpError(429, 'x', { 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(httpError(429, 'x', { 'retry-after-ms': '250' }))).toBe(250);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = retryAfterMs(httpError(429, 'x', { 'retry-after': inTenSeconds })) ?? 0;
    expect(fromDate).toBeGreaterThan(8000);
    expect(fromDate).toBeLessThanOrEqual(10_000);
  });

  it('is undefined without the header or for other errors', () => {
    expect(retryAfterMs(httpError(429, 'x'))).toBeUndefined();
    expect(retryAfterMs(httpError(429, 'x', { 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Error('x'))).toBeUndefined();
  });
});
