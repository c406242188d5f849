import type { RunControl } from '../../agent/index.js';
import type { Store, Unsubscribe } from '../../store/ports.js';
import { decodeAnswer } from './stored-answer.js';

/**
 * How often the runs waiting here look for their answers in the store without a signal (a
 * NOTIFY lost while the listening connection was away).
 */
export const ANSWER_POLL_MS = 2_000;

/**
 * Brings answers given in other processes (other servers, other machines) to the runs of this
 * process that wait for them: on the store's answer signal, and by a slow poll, each waiting
 * request is looked up; an answer found is taken (once: the store marks it) and delivered.
 */
export class AnswerWatch {
  private readonly controls = new Set<RunControl>();
  private listening: Promise<Unsubscribe | undefined> | undefined;
  private poll: NodeJS.Timeout | undefined;
  private checking = Promise.resolve();

  constructor(
    private readonly store: Store,
    /** Who takes the answers, as the store records it. */
    private readonly taker: string,
  ) {}

  /** Watches a run's control for as long as it is tracked; returns the removal. */
  add(control: RunControl): () => void {
    this.controls.add(control);
    if (this.listening === undefined) this.start();
    return () => {
      this.controls.delete(control);
      if (this.controls.size === 0) void this.stop();
    };
  }

  /** Stops listening (the process closes its store). */
  async stop(): Promise<void> {
    clearInterval(this.poll);
    this.poll = undefined;
    const listening = this.listening;
    this.listening = undefined;
    await (await listening)?.().catch(() => undefined);
  }

  private start(): void {
    this.listening = this.store.signals
      .onAnswers((requestId) => this.check(requestId))
      .catch(() => undefined);
    this.poll = setInterval(() => this.check(undefined), ANSWER_POLL_MS);
    this.poll.unref();
  }

  /** Looks for answers to the requests waiting here (only `requestId` when a signal named it), one look at a time. */
  private check(requestId: string | undefined): void {
    this.checking = this.checking.then(() => this.deliver(requestId)).catch(() => undefined);
  }

  private async deliver(requestId: string | undefined): Promise<void> {
    for (const control of [...this.controls]) {
      for (const pending of control.pending()) {
        if (requestId !== undefined && pending.requestId !== requestId) continue;
        const answer = decodeAnswer((await this.store.requests.get(pending.requestId))?.answer ?? null);
        if (answer === undefined) continue;
        const taken = await this.store.requests.take(pending.requestId, this.taker);
        if (taken?.first) control.answer(pending.requestId, answer);
      }
    }
  }
}
