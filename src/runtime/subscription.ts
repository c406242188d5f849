import type { EventBus } from '../events/bus.js';
import type { ServerEvent } from '../events/registry.js';
import type { SessionLog, StoreSignals, Unsubscribe } from '../store/ports.js';

/**
 * How often a subscription reads the log with no wake-up: only a fallback, for a notification
 * lost while the store's listening connection was down. Other processes' events arrive through
 * the store's signals (PostgreSQL NOTIFY, SQLite's data_version poll).
 */
export const SUBSCRIPTION_FALLBACK_POLL_MS = 2_000;

/**
 * Follows a session's events after `afterSeq`: the logged ones first (replay), then live. Events
 * of this process arrive from the bus as they are logged; events another process writes to the
 * same store are read from the log by seq when the store's signals announce them. Either way the
 * listener gets each seq once, in order, with no gap: an event that arrives ahead of its turn
 * makes the subscription read the log up to it first. Returns the function that ends it.
 */
export function subscribeToSession(options: {
  sessionId: string;
  afterSeq?: number;
  log: SessionLog;
  bus: EventBus;
  signals: StoreSignals;
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
      // The store is closing or unreadable for a moment: the next wake-up or poll tries again.
    } finally {
      reading = false;
    }
  };
  const unsubscribe = options.bus.subscribe((event) => {
    if (closed || event.session_id !== sessionId) return;
    // Not logged (seq 0: the end of a run whose store failed): it is passed on as it comes.
    if (event.seq === 0) return listener(event);
    if (event.seq <= last) return;
    if (!reading && event.seq === last + 1) deliver(event);
    else void catchUp();
  });
  // A wake-up for an event this process logged comes with its bus publication (or just before
  // it): the log is read only when the bus has not delivered the seq by the next turn.
  const announced = (announcedSession: string, seq: number) => {
    if (closed || announcedSession !== sessionId || seq <= last) return;
    setImmediate(() => {
      if (seq > last) void catchUp();
    });
  };
  let offSignals: Unsubscribe | undefined;
  options.signals
    .onEvents(announced)
    .then((off) => {
      if (closed) void off().catch(() => undefined);
      else offSignals = off;
      // What was logged while the listener was being set up is read now.
      void catchUp();
    })
    .catch(() => undefined);
  const timer = setInterval(() => void catchUp(), options.pollMs ?? SUBSCRIPTION_FALLBACK_POLL_MS);
  timer.unref();
  void catchUp();
  return () => {
    closed = true;
    clearInterval(timer);
    unsubscribe();
    void offSignals?.().catch(() => undefined);
  };
}
