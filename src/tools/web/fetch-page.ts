import type http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { guardedRequest, WebFetchRefusal } from './guarded-request.js';
import type { WebAccess } from './web-access.js';

/** The most redirects one fetch follows. */
export const MAX_REDIRECTS = 5;
/** The most bytes of a body read (after decompression); the rest is cut. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** How long one fetch may take, redirects and body included. */
export const FETCH_TIMEOUT_MS = 30_000;

/** A response read: where it ended up and the start of its body. */
export interface FetchedBody {
  /** The URL after redirects. */
  url: string;
  status: number;
  statusText: string;
  /** The media type, lower case, without parameters; '' when the server sent none. */
  mediaType: string;
  charset: string | undefined;
  body: Buffer;
  /** The body was longer than the limit and is cut at `body.length`. */
  cut: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a URL: http and https only, no credentials in it, each redirect checked as the first URL
 * is (its scheme, and its addresses where the socket connects), at most `maxRedirects` of them,
 * and the body read up to `maxBytes`.
 */
export async function fetchBody(
  start: string,
  options: {
    signal: AbortSignal;
    access: WebAccess | undefined;
    maxBytes?: number;
    maxRedirects?: number;
    timeoutMs?: number;
  },
): Promise<FetchedBody> {
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]);
  let url = checkedUrl(start);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await guardedRequest(url, { signal, access: options.access });
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location !== undefined) {
        response.resume();
        if (redirects >= maxRedirects)
          throw new WebFetchRefusal(
            `${start} redirects more than ${maxRedirects} times; not followed further.`,
          );
        url = checkedUrl(new URL(location, url).href);
        continue;
      }
      return await readResponse(url, response, options.maxBytes ?? MAX_BODY_BYTES);
    }
  } catch (error) {
    if (signal.aborted && !options.signal.aborted)
      throw new WebFetchRefusal(`${url.href} did not answer within ${timeoutMs / 1000} s.`);
    throw error;
  }
}

function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebFetchRefusal(`${text} is not a URL; give a full http:// or https:// address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebFetchRefusal(`${url.href} is not http or https; web_fetch fetches only those.`);
  if (url.username !== '' || url.password !== '')
    throw new WebFetchRefusal('URLs with a user name or password are not fetched.');
  url.hash = '';
  return url;
}

async function readResponse(
  url: URL,
  response: http.IncomingMessage,
  maxBytes: number,
): Promise<FetchedBody> {
  const [type = '', ...parameters] = (response.headers['content-type'] ?? '').split(';');
  const charset = parameters
    .map((parameter) => parameter.trim().match(/^charset="?([^";]+)"?$/i)?.[1])
    .find((value) => value !== undefined);
  const { body, cut } = await readUpTo(decoded(response), maxBytes);
  response.destroy();
  return {
    url: url.href,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    mediaType: type.trim().toLowerCase(),
    charset,
    body,
    cut,
  };
}

/** The body, decompressed as the server encoded it; limits apply to what it decompresses to. */
function decoded(response: http.IncomingMessage): Readable {
  switch (response.headers['content-encoding']?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(zlib.createGunzip());
    case 'deflate':
      return response.pipe(zlib.createInflate());
    case 'br':
      return response.pipe(zlib.createBrotliDecompress());
    default:
      return response;
  }
}

async function readUpTo(stream: Readable, maxBytes: number): Promise<{ body: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size + buffer.length > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - size));
      stream.destroy();
      return { body: Buffer.concat(chunks), cut: true };
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { body: Buffer.concat(chunks), cut: false };
}
