import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { sleep } from './sleep.js';

/** Tries in all, the first included. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** The wait before the first retry; it doubles with each further retry. */
export const DEFAULT_BASE_DELAY_MS = 1000;
export const DEFAULT_MAX_DELAY_MS = 30_000;
/**
 * The longest Retry-After honoured as asked. A provider that asks for longer gets its error shown
 * instead of a retry that would come too early and fail again.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** Overrides DEFAULT_BASE_DELAY_MS, so that tests and demos need not wait for real backoff. */
export const RETRY_BASE_ENV = 'TASKWEAVE_RETRY_BASE_MS';
/** Each backoff delay is spread by up to this share either way, so that clients do not retry in step. */
const JITTER_RATIO = 0.25;
/** How deep the cause chain is followed; guards against cycles of causes. */
const MAX_CAUSE_DEPTH = 10;

/** Socket-level failures that a new connection may well not hit again. */
const TRANSIENT_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export interface RetryOptions {
  /** Tries in all, the first included; default 5. */
  maxAttempts?: number;
  /** Wait before the first retry, doubled for each further one, with jitter; default 1000 ms. */
  baseDelayMs?: number;
  /** Upper bound of any wait, Retry-After included; default 30000 ms. */
  maxDelayMs?: number;
  /** Ends the wait between tries at once; the abort reason is thrown. */
  signal?: AbortSignal;
  /** Called before each wait; `attempt` is the number of the try that just failed (1-based). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/**
 * Calls `fn` (with the 1-based attempt number) until it succeeds, retrying transient errors
 * (see isTransientError) with exponential backoff, or the delay the provider asked for with
 * Retry-After. Any other error is rethrown at once, unchanged; after the last try the last error
 * is thrown.
 *
 * The default base delay can be set with the environment variable `TASKWEAVE_RETRY_BASE_MS`
 * (milliseconds; read on each call), which tests and demos set low so that retries are quick.
 * An explicit `baseDelayMs` wins over it.
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const baseDelayMs = options.baseDelayMs ?? baseDelayFromEnv() ?? DEFAULT_BASE_DELAY_MS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await fn(attempt);
    } catch (error) {
      if (options.signal?.aborted || attempt >= maxAttempts || !isTransientError(error)) throw error;
      const requested = retryAfterMs(error);
      if (requested !== undefined && requested > MAX_RETRY_AFTER_MS) throw error;
      const delayMs = Math.round(requested ?? Math.min(backoffDelay(baseDelayMs, attempt), maxDelayMs));
      options.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }
}

/**
 * Whether an error is worth another try: an APICallError with status 408, 409, 429 or >= 500,
 * or a connection failure (ECONNRESET, ECONNREFUSED, ETIMEDOUT, EPIPE, UND_ERR_SOCKET, …)
 * anywhere in the cause chain, as in fetch's "fetch failed" and "terminated" errors.
 */
export function isTransientError(error: unknown): boolean {
  for (const link of causeChain(error)) {
    if (APICallError.isInstance(link) && link.statusCode !== undefined)
      return isTransientStatus(link.statusCode);
    if (hasTransientCode(link)) return true;
  }
  return false;
}

/** Whether an HTTP status means "try again later": timeout, conflict, rate limit, server errors. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The delay the provider asked for, from the `retry-after-ms` header or the `retry-after`
 * header (seconds or an HTTP date) of an APICallError in the cause chain; undefined when none.
 */
export function retryAfterMs(error: unknown): number | undefined {
  for (const link of causeChain(error)) {
    if (!APICallError.isInstance(link) || link.responseHeaders === undefined) continue;
    const headers = lowerCaseKeys(link.responseHeaders);
    const milliseconds = Number.parseFloat(headers['retry-after-ms'] ?? '');
    if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
    const retryAfter = headers['retry-after']?.trim();
    if (retryAfter === undefined || retryAfter === '') continue;
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number.parseFloat(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return undefined;
}

function backoffDelay(baseDelayMs: number, failedAttempt: number): number {
  const nominal = baseDelayMs * 2 ** (failedAttempt - 1);
  return nominal * (1 + JITTER_RATIO * (2 * Math.random() - 1));
}

function baseDelayFromEnv(): number | undefined {
  const raw = process.env[RETRY_BASE_ENV];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The error, its causes, the last error of an AI SDK RetryError and the members of an AggregateError. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && chain.length < MAX_CAUSE_DEPTH) {
    const link = pending.shift();
    if (link === undefined || link === null || chain.includes(link)) continue;
    chain.push(link);
    if (RetryError.isInstance(link)) pending.push(link.lastError);
    if (link instanceof AggregateError) pending.push(...link.errors);
    if (link instanceof Error) pending.push(link.cause);
  }
  return chain;
}

function hasTransientCode(link: unknown): boolean {
  if (typeof link !== 'object' || link === null || !('code' in link)) return false;
  return typeof link.code === 'string' && TRANSIENT_ERROR_CODES.has(link.code);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}
