import type { EventBus } from '../../events/bus.js';
import type { EventPayload, ServerEvent } from '../../events/registry.js';
import type { Store } from '../../store/ports.js';
import { errorMessage } from '../../util/error-message.js';
import { requestOfEvent } from './request-event.js';
import { isStreamedEvent, STREAMED_FLUSH_MS } from './streamed-events.js';

export interface JournalOptions {
  sessionId: string;
  /**
   * The store: its session log, and its transactions (one commit for a group of writes); its
   * request log, when given, records each request event's request with the event.
   */
  store: Pick<Store, 'sessions' | 'transaction'> & Partial<Pick<Store, 'requests' | 'streamedFlushMs'>>;
  bus: EventBus;
  now?: () => number;
}

/** The seq of a message that is not logged (protocol.md): the store never gives it. */
const UNLOGGED_SEQ = 0;

interface QueuedWrite {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /**
   * Set when the write only logs these events (none asks a request): consecutive such writes of
   * a group are logged with one statement of the store, and a group of nothing else needs no
   * transaction around it.
   */
  events?: HeldEvent[];
}

/** An event as the store logs it: everything but the seq, which the store assigns. */
type LoggedEvent = Parameters<Store['sessions']['appendEvent']>[0];

interface HeldEvent {
  runId: string;
  payload: EventPayload;
  ts: number;
}

/**
 * Persist, then announce, in one place. Every write of a run (its state changes and its events)
 * goes through one journal, in call order: an event is logged by the store (which assigns its
 * seq inside the write) and only then published; a state change is written before the event
 * that reports it. A failed write is remembered: the run ends as failed with the reason instead
 * of reporting work nobody can find again.
 *
 * Writes are grouped: those queued in one turn of the event loop, or while the last group was
 * being written (the task starts of one dispatch, the replies of parallel tasks that came back
 * together, a state change and its event), commit in one transaction, and their events are
 * published once it has committed. A group is written on the turn's way out (setImmediate),
 * after the work that was ready has run: a task that can start reaches its model call before the
 * fsync of what made it ready, and parallel replies share one commit. The hop costs an awaited
 * write a few microseconds; an event waits for the rest of its turn's work, which on the hot
 * path is well under a millisecond (bench:server measures the latency a client sees).
 *
 * Streamed events (text deltas, tool progress) are many, small, and not needed by a resumed run.
 * They are held and written at most STREAMED_FLUSH_MS (or the store's `streamedFlushMs`) later,
 * with the next write or on their own, and published like every event once the store has given
 * them their seqs: a front end sees them while the model streams, that much later, and the bus
 * carries every session's events in seq order. A crash may lose the held events not yet written;
 * nobody has seen them.
 */
export class Journal {
  readonly sessionId: string;
  private readonly store: JournalOptions['store'];
  private readonly bus: EventBus;
  private readonly now: () => number;
  private firstFailure: Error | undefined;
  private queued: QueuedWrite[] = [];
  private writing = false;
  /** Streamed events not yet written, in order. */
  private held: HeldEvent[] = [];
  private heldWritten: Promise<undefined> | undefined;
  private releaseHeld: (() => void) | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Events of the group being written, published once it commits. */
  private outbox: ServerEvent[] = [];

  constructor(options: JournalOptions) {
    this.sessionId = options.sessionId;
    this.store = options.store;
    this.bus = options.bus;
    this.now = options.now ?? Date.now;
  }

  /** The first write that failed, if one did: the store is not keeping the run's record. */
  get failure(): Error | undefined {
    return this.firstFailure;
  }

  /**
   * Logs an event and then announces it; resolves with the logged event (undefined for a
   * streamed event, held and written with others). Never rejects: callers on the hot path do
   * not wait; a failure is kept in `failure`, which ends the run.
   */
  emit(runId: string, payload: EventPayload): Promise<ServerEvent | undefined> {
    const ts = this.now();
    if (isStreamedEvent(payload)) return this.hold({ runId, payload, ts });
    const event = { runId, payload, ts };
    this.flushHeld();
    const logsOnly = this.asksRequest(event) ? undefined : [event];
    return this.enqueue(() => this.append(event), logsOnly).catch(() => undefined);
  }

  /**
   * Writes a state change, then logs and announces the event that reports it (built from the
   * change's result when a function). Rejects when the write fails.
   */
  record<T>(runId: string, change: () => Promise<T>, event?: EventPayload | ((value: T) => EventPayload)) {
    const ts = this.now();
    return this.write(async () => {
      const value = await change();
      if (event !== undefined)
        await this.append({ runId, payload: typeof event === 'function' ? event(value) : event, ts });
      return value;
    });
  }

  /**
   * Runs one write after every write queued before it (the held streamed events included);
   * resolves once its group has committed, rejects when it fails. The work should only call the
   * store: its group's transaction is open while it runs.
   */
  write<T>(work: () => Promise<T>): Promise<T> {
    this.flushHeld();
    return this.enqueue(work);
  }

  /**
   * Announces an event the store could not log because it failed (its file was deleted under the
   * run, the disk is full): the end of a run still reaches whoever watches it, as failed with the
   * reason, instead of the stream just stopping. It is not logged, so it carries no seq of the
   * store's: seq 0, as every message that is not logged (protocol.md).
   */
  announceUnkept(runId: string, payload: EventPayload): void {
    this.bus.publish({
      ...this.envelope({ runId, payload, ts: this.now() }),
      seq: UNLOGGED_SEQ,
    } as ServerEvent);
  }

  /** Resolves once every write queued so far (held events included) is done, whether it succeeded or not. */
  async settled(): Promise<void> {
    await this.write(async () => {}).catch(() => undefined);
  }

  private enqueue<T>(work: () => Promise<T>, events?: HeldEvent[]): Promise<T> {
    const written = new Promise<unknown>((resolve, reject) => {
      this.queued.push({ work, resolve, reject, events });
      if (!this.writing) {
        this.writing = true;
        // Once the turn's ready work has run, so that its writes (a dispatch) join the group.
        setImmediate(() => void this.writeGroups());
      }
    });
    return written.then(
      (value) => value as T,
      (error: unknown) => {
        this.firstFailure ??= new Error(`The store failed: ${errorMessage(error)}`, { cause: error });
        throw error;
      },
    );
  }

  private async writeGroups(): Promise<void> {
    while (this.queued.length > 0) {
      const group = this.queued;
      this.queued = [];
      const outcomes: { ok: boolean; value: unknown }[] = [];
      const outbox: ServerEvent[] = [];
      const writeAll = async () => {
        this.outbox = outbox;
        for (let index = 0; index < group.length; ) {
          // Writes that only log events, one after another: their events go in one statement.
          let end = index;
          while (group[end]?.events !== undefined) end += 1;
          if (end - index > 1) {
            const run = group.slice(index, end);
            await this.appendAll(run.flatMap((write) => write.events ?? [])).then(
              (logged) => {
                // Each write resolves with the last event it logged (an emit's is its one event).
                let at = 0;
                for (const write of run) {
                  at += write.events?.length ?? 0;
                  outcomes.push({ ok: true, value: logged[at - 1] });
                }
              },
              (error: unknown) => {
                for (const _ of run) outcomes.push({ ok: false, value: error });
              },
            );
            index = end;
            continue;
          }
          try {
            outcomes.push({ ok: true, value: await group[index]!.work() });
          } catch (error) {
            outcomes.push({ ok: false, value: error });
          }
          index += 1;
        }
      };
      try {
        // Events alone are logged by statements that need no transaction around them (the store
        // gives a batch its own): on a database server BEGIN and COMMIT would be two more round
        // trips before the events are out.
        if (group.every((write) => write.events !== undefined)) await writeAll();
        else await this.store.transaction(writeAll);
      } catch (error) {
        // Nothing of the group was kept (its seqs with it), so none of its events is announced.
        for (const write of group) write.reject(error);
        continue;
      }
      for (const event of outbox) this.bus.publish(event);
      group.forEach((write, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) write.resolve(outcome.value);
        else write.reject(outcome.value);
      });
    }
    this.writing = false;
  }

  private hold(event: HeldEvent): Promise<undefined> {
    this.held.push(event);
    if (this.heldWritten === undefined) {
      this.heldWritten = new Promise((resolve) => {
        this.releaseHeld = () => resolve(undefined);
      });
      this.flushTimer = setTimeout(() => this.flushHeld(), this.store.streamedFlushMs ?? STREAMED_FLUSH_MS);
    }
    return this.heldWritten;
  }

  /** Queues the held streamed events as one write, ahead of whatever comes next. */
  private flushHeld(): void {
    if (this.held.length === 0) return;
    clearTimeout(this.flushTimer);
    const events = this.held;
    const release = this.releaseHeld;
    this.held = [];
    this.heldWritten = undefined;
    this.releaseHeld = undefined;
    // A failed write is the journal's failure (it ends the run); the events are not announced.
    this.enqueue(() => this.appendAll(events), events).then(release, release);
  }

  /** Whether logging the event also records a request (a question, an approval, a plan, a decision). */
  private asksRequest(held: HeldEvent): boolean {
    if (this.store.requests === undefined) return false;
    return requestOfEvent({ ...this.envelope(held), seq: UNLOGGED_SEQ } as ServerEvent) !== undefined;
  }

  /** Logs events that ask no request with one statement of the store; announces them at commit. */
  private async appendAll(held: HeldEvent[]): Promise<ServerEvent[]> {
    const logged = await this.store.sessions.appendEvents(held.map((event) => this.envelope(event)));
    this.outbox.push(...logged);
    return logged;
  }

  private async append(held: HeldEvent): Promise<ServerEvent> {
    const event = await this.store.sessions.appendEvent(this.envelope(held));
    // A request is answerable from any process once its event is out: both commit together.
    const request = this.store.requests && requestOfEvent(event);
    if (request) await this.store.requests?.ask(request);
    this.outbox.push(event);
    return event;
  }

  /** The event with its envelope (session, run, time), as the store logs it: the store gives its seq. */
  private envelope({ runId, payload, ts }: HeldEvent): LoggedEvent {
    return { ...payload, session_id: this.sessionId, run_id: runId, ts } as LoggedEvent;
  }
}
