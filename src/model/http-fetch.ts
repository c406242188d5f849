/**
 * `fetch` for a model server on plain http (Ollama, llama.cpp, vLLM, LM Studio on this machine or
 * the network), through node:http. Node's own fetch (undici) sets up its client, its dispatcher
 * and its WebAssembly HTTP parser on the first request, about 10 ms of a run's start that
 * node:http, already loaded with Node, does not pay (bench/startup.ts). What the SDKs see is the
 * same: a `Response` whose body streams as it arrives, `TypeError('fetch failed')` with the cause
 * for a request that could not be made, the signal's reason when it is aborted.
 *
 * Anything this does not handle the way fetch would goes to the global fetch unchanged: https
 * and other schemes, a `Request` object, a body that is not a string or bytes, a redirect.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

/** Status codes that carry no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** fetch over node:http for http: URLs, the global fetch for everything else. */
export const plainHttpFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? tryUrl(input) : input instanceof URL ? input : undefined;
  const body = init?.body;
  const sendable =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (url === undefined || url.protocol !== 'http:' || !sendable || init?.redirect === 'manual') {
    return globalThis.fetch(input, init);
  }
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<Response>((resolve, reject) => {
    const request = http.request(url, {
      method: init?.method ?? 'GET',
      headers: headerRecord(init?.headers),
    });
    const onAbort = () => {
      request.destroy();
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new TypeError('fetch failed', { cause: error }));
    });
    request.on('response', (incoming) => {
      const status = incoming.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && incoming.headers.location !== undefined) {
        // Followed as fetch follows it: by fetch itself (rare for a model server).
        incoming.resume();
        signal?.removeEventListener('abort', onAbort);
        globalThis.fetch(input, init).then(resolve, reject);
        return;
      }
      const headers = new Headers();
      const raw = incoming.rawHeaders;
      for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
      // Once the answer has come, an abort ends its body (as fetch does), not the promise.
      // The listener leaves with the body: a run's signal serves hundreds of requests.
      signal?.removeEventListener('abort', onAbort);
      if (signal) {
        const onBodyAbort = () => incoming.destroy(abortReason(signal) as Error);
        signal.addEventListener('abort', onBodyAbort, { once: true });
        incoming.once('close', () => signal.removeEventListener('abort', onBodyAbort));
      }
      const stream = NULL_BODY_STATUSES.has(status) || init?.method === 'HEAD' ? null : bodyOf(incoming);
      if (stream === null) incoming.resume();
      resolve(new Response(stream, { status, statusText: incoming.statusMessage ?? '', headers }));
    });
    request.end(body ?? undefined);
  });
};

/** The response's body as a web stream, decompressed when the server compressed it anyway. */
function bodyOf(incoming: http.IncomingMessage): ReadableStream<Uint8Array> {
  const encoding = String(incoming.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) {
    return Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
  }
  // Loaded only then (a few ms): taskweave asks for no compression, but a server may send it.
  const zlib = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  const decoder =
    encoding === 'br'
      ? zlib.createBrotliDecompress()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : zlib.createGunzip();
  incoming.on('error', (error) => decoder.destroy(error));
  return Readable.toWeb(incoming.pipe(decoder)) as ReadableStream<Uint8Array>;
}

function tryUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** What fetch rejects with when its signal aborts. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** init.headers (a Headers, pairs or a record) as node:http takes them. */
function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined) return record;
  const entries =
    headers instanceof Headers
      ? headers.entries()
      : Array.isArray(headers)
        ? headers
        : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) record[name] = String(value);
  }
  return record;
}
