/** The longest wait for a model's first streamed part (a slow provider may take long to start). */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 120_000;
/** The longest silence between two streamed parts once the reply has started. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

/** How long a streamed model call may keep quiet, in milliseconds. */
export interface StreamTimeouts {
  /** From the start of the call to the first part of the reply. */
  firstTokenMs: number;
  /** Between two parts of the reply once it has started. */
  idleMs: number;
}

/** The timeouts of a model, the defaults filling what it does not set. */
export function streamTimeoutsOf(timeouts: Partial<StreamTimeouts> | undefined): StreamTimeouts {
  return {
    firstTokenMs: timeouts?.firstTokenMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
    idleMs: timeouts?.idleMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  };
}

/**
 * A model call that went quiet for too long. Its `code` is ETIMEDOUT, so the retry policy takes
 * it for a transient error: the call is tried again, then fails with this message.
 */
export class ModelStreamTimeoutError extends Error {
  override name = 'ModelStreamTimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(
    readonly kind: 'first_token' | 'idle',
    readonly timeoutMs: number,
  ) {
    super(
      kind === 'first_token'
        ? `The model sent nothing for ${timeoutMs} ms after the request (first-token timeout).`
        : `The model's reply stalled: nothing streamed for ${timeoutMs} ms (idle-stream timeout).`,
    );
  }
}

/** Parts a provider's stream opens with before anything of the reply (the stream's warnings, the response's id). */
const NOT_PROGRESS = new Set(['stream-start', 'response-metadata']);

/**
 * Yields the parts of a model stream, failing with ModelStreamTimeoutError when the first part
 * of the reply takes longer than `firstTokenMs`, or a later one longer than `idleMs`. On a
 * timeout `onTimeout` is called first (to abort the request) and the stream is not read further;
 * the wait does not depend on the stream honouring the abort.
 */
export async function* withStreamTimeouts<Part extends { type: string }>(
  stream: AsyncIterable<Part>,
  options: { timeouts: StreamTimeouts; onTimeout: (error: ModelStreamTimeoutError) => void },
): AsyncGenerator<Part> {
  const iterator = stream[Symbol.asyncIterator]();
  const { firstTokenMs, idleMs } = options.timeouts;
  let started = false;
  let deadline = Date.now() + firstTokenMs;
  for (;;) {
    const next = iterator.next();
    // A read left behind by a timeout may still reject later: it must not become unhandled.
    next.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()));
    });
    const first = await Promise.race([next, expired]).finally(() => clearTimeout(timer));
    if (first === 'expired') {
      const error = new ModelStreamTimeoutError(
        started ? 'idle' : 'first_token',
        started ? idleMs : firstTokenMs,
      );
      options.onTimeout(error);
      iterator.return?.().catch(() => {});
      throw error;
    }
    if (first.done) return;
    if (!NOT_PROGRESS.has(first.value.type)) {
      started = true;
      deadline = Date.now() + idleMs;
    }
    yield first.value;
  }
}
