import type { ServerEvent } from '../events/registry.js';
import { SessionStoreError } from './store-errors.js';

/*
 * How an event is logged, in every dialect: the store gives it the next seq of its session (one
 * counter per session, `session_seqs`, bumped by the statement or transaction that inserts the
 * events) and keeps the whole event as JSON, its seq last. The SQL that does it is each
 * dialect's own; what the row holds is decided here.
 */

/** An event ready to be logged: everything but its seq, which the store assigns. */
export type UnsequencedEvent = ServerEvent extends infer E
  ? E extends ServerEvent
    ? Omit<E, 'seq'>
    : never
  : never;

/** The columns of an event's row but its seq, and its JSON up to where the seq goes. */
export interface EventRecord {
  sessionId: string;
  runId: string;
  type: string;
  /** An `agent_update`'s update_type; null for other events. */
  updateType: string | null;
  /** The event's JSON without its closing brace: the seq is added last once it is known. */
  payloadHead: string;
  ts: number;
}

/** The row an event is logged as, but its seq. */
export function eventRecord(event: UnsequencedEvent): EventRecord {
  // A seq given anyway is not the event's: the store's is the only one.
  const { seq: _given, ...unsequenced } = event as UnsequencedEvent & { seq?: unknown };
  return {
    sessionId: event.session_id,
    runId: event.run_id,
    type: event.type,
    updateType: event.type === 'agent_update' ? event.update_type : null,
    payloadHead: JSON.stringify(unsequenced).slice(0, -1),
    ts: event.ts,
  };
}

/** The JSON an event is kept as, with its seq: the envelope's seq comes last, as the bus has always had it. */
export function stampedPayload(record: Pick<EventRecord, 'payloadHead'>, seq: number): string {
  return `${record.payloadHead},"seq":${seq}}`;
}

/** The event as logged under `seq`: what the store returns and the journal publishes. */
export function stampedEvent(record: EventRecord, seq: number): ServerEvent {
  // Built from the JSON it is kept as: the event a reader gets back is this one, field for field.
  const event: ServerEvent = JSON.parse(stampedPayload(record, seq));
  return event;
}

/**
 * The session a batch of events is logged to: one session per append (its counter is bumped
 * once for the batch); undefined for an empty batch.
 */
export function batchSession(records: readonly EventRecord[]): string | undefined {
  const sessionId = records[0]?.sessionId;
  const other = records.find((record) => record.sessionId !== sessionId);
  if (other !== undefined) {
    throw new SessionStoreError(
      `A batch of events is logged to one session: ${sessionId} and ${other.sessionId} were given together.`,
    );
  }
  return sessionId;
}
