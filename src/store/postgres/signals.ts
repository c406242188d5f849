import type { StoreSignals, Unsubscribe } from '../ports.js';
import { CHANNELS } from './channels.js';
import type { PgConnection } from './connection.js';

/**
 * The PostgreSQL store's wake-ups: LISTEN on the store's channels. Every process's writes are
 * announced, at their commit (NOTIFY in the writing transaction).
 */
export class PgSignals implements StoreSignals {
  constructor(private readonly connection: PgConnection) {}

  onTasks(listener: (queue: string | undefined) => void): Promise<Unsubscribe> {
    return this.connection.listen(CHANNELS.tasks, (queue) => listener(queue));
  }

  onEvents(listener: (sessionId: string, seq: number) => void): Promise<Unsubscribe> {
    return this.connection.listen(CHANNELS.events, (payload) => {
      const [sessionId, seq] = payload.split(' ');
      if (sessionId !== undefined && seq !== undefined) listener(sessionId, Number(seq));
    });
  }

  onAnswers(listener: (requestId: string | undefined) => void): Promise<Unsubscribe> {
    return this.connection.listen(CHANNELS.answers, (requestId) => listener(requestId));
  }
}
