import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { TOKEN_PROTOCOL_PREFIX } from '../events/access-token.js';

/** Why a request was refused. */
export interface AccessRefusal {
  status: 401 | 403;
  code: 'unauthorized' | 'forbidden_host' | 'forbidden_origin';
  message: string;
}

/** What a request shows the guard: its headers. */
export interface AccessRequest {
  headers: Record<string, string | string[] | undefined>;
}

/** `Bearer <token68>` (RFC 6750); the scheme is case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** A new access token: 32 random bytes, URL-safe. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Who may talk to the server: requests that name one of the server's own addresses in `Host`
 * (against DNS rebinding), come from no foreign `Origin` (against cross-site WebSocket hijacking)
 * and carry the token (`Authorization: Bearer`, or a WebSocket subprotocol value), compared in
 * constant time. No cookie and no `?token=`: see `src/events/access-token.ts`.
 */
export class AccessGuard {
  private readonly tokenDigest: Buffer;
  private hosts = new Set<string>();

  constructor(token: string) {
    this.tokenDigest = digest(token);
  }

  /** Sets the address the server listens on: its host names and port are the allowed `Host`s. */
  listeningOn(host: string, port: number): void {
    const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
    if (WILDCARD_HOSTS.has(host)) {
      for (const addresses of Object.values(networkInterfaces()))
        for (const address of addresses ?? [])
          names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
    } else names.add(host.includes(':') ? `[${host}]` : host.toLowerCase());
    this.hosts = new Set([...names].map((name) => `${name}:${port}`));
  }

  /** The reason to refuse a request, or undefined when it may pass. */
  check(request: AccessRequest, options: { tokenRequired?: boolean } = {}): AccessRefusal | undefined {
    const host = header(request, 'host')?.toLowerCase();
    if (!this.allowsHost(host))
      return {
        status: 403,
        code: 'forbidden_host',
        message: `The Host header ${host ?? '(none)'} is not this server's address.`,
      };
    const origin = header(request, 'origin');
    if (origin !== undefined && !this.hosts.has(originHost(origin)))
      return { status: 403, code: 'forbidden_origin', message: `Requests from ${origin} are not allowed.` };
    if (options.tokenRequired === false || this.tokenMatches(this.presentedToken(request))) return undefined;
    return {
      status: 401,
      code: 'unauthorized',
      message: 'The access token is missing or wrong: open the URL `taskweave serve` printed.',
    };
  }

  /** Whether a `Host` header names one of the server's own addresses. */
  allowsHost(host: string | undefined): host is string {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  /** Whether a candidate equals the token (constant time). */
  tokenMatches(candidate: string | undefined): boolean {
    if (candidate === undefined || candidate === '') return false;
    return timingSafeEqual(digest(candidate), this.tokenDigest);
  }

  /**
   * The token a request carries: `Authorization: Bearer <token>`, else the `taskweave.token.<token>`
   * value of `Sec-WebSocket-Protocol` (a browser's WebSocket can set no other header). A malformed
   * header carries none.
   */
  presentedToken(request: AccessRequest): string | undefined {
    const authorization = header(request, 'authorization');
    if (authorization !== undefined) return BEARER.exec(authorization)?.[1];
    for (const value of header(request, 'sec-websocket-protocol')?.split(',') ?? []) {
      const protocol = value.trim();
      if (protocol.startsWith(TOKEN_PROTOCOL_PREFIX)) return protocol.slice(TOKEN_PROTOCOL_PREFIX.length);
    }
    return undefined;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function header(request: AccessRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:') return '';
    return `${url.hostname}:${url.port || '80'}`.toLowerCase();
  } catch {
    return '';
  }
}
