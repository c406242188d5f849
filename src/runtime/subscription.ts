import type { EventBus } from '../events/bus.js';
import type { ServerEvent } from '../events/registry.js';
import type { SessionLog } from '../store/ports.js';

/** How often a subscription reads the log for events other processes wrote to the same database. */
export const SUBSCRIPTION_POLL_MS = 100;

/**
 * Follows a session's events after `afterSeq`: the logged ones first (replay), then live. Events
 * of this process arrive from the bus as they are logged; events another process writes to the
 * same database are read from the log every SUBSCRIPTION_POLL_MS. Either way the listener gets
 * each seq once, in order, with no gap: an event that arrives ahead of its turn makes the
 * subscription read the log up to it first. Returns the function that ends it.
 */
export function subscribeToSession(options: {
  sessionId: string;
  afterSeq?: number;
  log: SessionLog;
  bus: EventBus;
  listener: (event: ServerEvent) => void;
  pollMs?: number;
}): () => void {
  const { sessionId, log, listener } = options;
  let last = options.afterSeq ?? 0;
  let reading = false;
  let again = false;
  let closed = false;

  const deliver = (event: ServerEvent) => {
    if (closed || event.seq !== last + 1) return;
    last = event.seq;
    listener(event);
  };
  const catchUp = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        for (const event of await log.events(sessionId, { afterSeq: last })) deliver(event);
      } while (again && !closed);
    } catch {
      // The store is closing or unreadable for a moment: the next poll tries again.
    } finally {
      reading = false;
    }
  };
  const unsubscribe = options.bus.subscribe((event) => {
    if (closed || event.session_id !== sessionId || event.seq <= last) return;
    if (!reading && event.seq === last + 1) deliver(event);
    else void catchUp();
  });
  const timer = setInterval(() => void catchUp(), options.pollMs ?? SUBSCRIPTION_POLL_MS);
  timer.unref();
  void catchUp();
  return () => {
    closed = true;
    clearInterval(timer);
    unsubscribe();
  };
}
