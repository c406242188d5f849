import type { ServerEvent } from './registry.js';

/** Receives every event after the store has logged it (and given it its seq). */
export type EventListener = (event: ServerEvent) => void;

/**
 * The one in-process bus: fans logged events out to listeners (front ends, subscriptions). It
 * never stamps or stores anything: the journal writes an event to the store, which assigns its
 * seq, and only then publishes it here. A listener that throws does not stop the others.
 */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Announces one logged event to every listener. */
  publish(event: ServerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /** Subscribes; the returned function unsubscribes. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
