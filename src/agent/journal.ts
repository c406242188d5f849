import type { EventBus } from '../events/bus.js';
import type { EventPayload, ServerEvent } from '../events/registry.js';
import type { SessionLog } from '../store/ports.js';
import { errorMessage } from '../util/error-message.js';

export interface JournalOptions {
  sessionId: string;
  log: SessionLog;
  bus: EventBus;
  now?: () => number;
}

/**
 * Persist, then announce, in one place. Every write of a run (its state changes and its events)
 * goes through one journal, in call order: an event is logged by the store (which assigns its
 * seq inside the write) and only then published; a state change is written before the event
 * that reports it. A failed write is remembered: the run ends as failed with the reason instead
 * of reporting work nobody can find again.
 */
export class Journal {
  readonly sessionId: string;
  private readonly log: SessionLog;
  private readonly bus: EventBus;
  private readonly now: () => number;
  private tail: Promise<unknown> = Promise.resolve();
  private firstFailure: Error | undefined;

  constructor(options: JournalOptions) {
    this.sessionId = options.sessionId;
    this.log = options.log;
    this.bus = options.bus;
    this.now = options.now ?? Date.now;
  }

  /** The first write that failed, if one did: the store is not keeping the run's record. */
  get failure(): Error | undefined {
    return this.firstFailure;
  }

  /**
   * Logs an event and then announces it. Never rejects: callers on the hot path (streamed text,
   * tool progress) do not wait; a failure is kept in `failure`, which ends the run.
   */
  emit(runId: string, payload: EventPayload): Promise<ServerEvent | undefined> {
    return this.write(() => this.append(runId, payload)).catch(() => undefined);
  }

  /**
   * Writes a state change, then logs and announces the event that reports it (built from the
   * change's result when a function). Rejects when the write fails.
   */
  record<T>(runId: string, change: () => Promise<T>, event?: EventPayload | ((value: T) => EventPayload)) {
    return this.write(async () => {
      const value = await change();
      if (event !== undefined) await this.append(runId, typeof event === 'function' ? event(value) : event);
      return value;
    });
  }

  /** Runs one write after every write queued before it; rejects when it fails. */
  write<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work).catch((error: unknown) => {
      this.firstFailure ??= new Error(`The store failed: ${errorMessage(error)}`, { cause: error });
      throw error;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every write queued so far is done (whether it succeeded or not). */
  async settled(): Promise<void> {
    await this.tail;
  }

  private async append(runId: string, payload: EventPayload): Promise<ServerEvent> {
    const event = await this.log.appendEvent({
      ...payload,
      session_id: this.sessionId,
      run_id: runId,
      ts: this.now(),
    });
    this.bus.publish(event);
    return event;
  }
}
