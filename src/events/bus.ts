import type { Envelope, EventPayload, ServerEvent } from './registry.js';

/** Receives every event after it has been stamped (and persisted, when a sink is set). */
export type EventListener = (event: ServerEvent) => void;

/**
 * Writes an event somewhere durable before it is announced. SQLite is the source of truth:
 * the sink runs synchronously, before any listener sees the event.
 */
export type EventSink = (event: ServerEvent) => void;

export interface EventBusOptions {
  sessionId: string;
  /** The first seq to hand out (after the session's last logged event). */
  startSeq?: number;
  sink?: EventSink;
  now?: () => number;
}

/** The one bus: stamps envelopes, persists through the sink, then fans out to listeners. */
export class EventBus {
  readonly sessionId: string;
  private nextSeq: number;
  private readonly listeners = new Set<EventListener>();
  private readonly sink: EventSink | undefined;
  private readonly now: () => number;

  constructor(options: EventBusOptions) {
    this.sessionId = options.sessionId;
    this.nextSeq = options.startSeq ?? 1;
    this.sink = options.sink;
    this.now = options.now ?? Date.now;
  }

  /** Stamps, persists and announces one event; returns it as sent. */
  emit(runId: string, payload: EventPayload): ServerEvent {
    const envelope: Envelope = {
      session_id: this.sessionId,
      run_id: runId,
      seq: this.nextSeq++,
      ts: this.now(),
    };
    const event: ServerEvent = { ...payload, ...envelope };
    this.sink?.(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** Subscribes; the returned function unsubscribes. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
