import type { PendingRequest, RunControl } from '../../agent/index.js';
import type { AnswerWatch } from '../answers/answer-watch.js';

/**
 * The controls of the runs going on in this process, by session: answers and stops reach a run
 * through them, and answers given in other processes reach it through the answer watch.
 */
export class LiveRuns {
  private readonly controls = new Map<string, Set<RunControl>>();

  constructor(private readonly answerWatch: AnswerWatch) {}

  /** Registers the control of a run of `sessionId`; returns its removal. */
  track(sessionId: string, control: RunControl): () => void {
    let set = this.controls.get(sessionId);
    if (!set) {
      set = new Set();
      this.controls.set(sessionId, set);
    }
    set.add(control);
    const unwatch = this.answerWatch.add(control);
    return () => {
      unwatch();
      set.delete(control);
      if (set.size === 0) this.controls.delete(sessionId);
    };
  }

  /** The control of the run in this process that waits for the request `requestId`. */
  waitingFor(requestId: string): RunControl | undefined {
    return [...this.controls.values()]
      .flatMap((set) => [...set])
      .find((control) => control.pending().some((request) => request.requestId === requestId));
  }

  /** The requests waiting for an answer in this process, with their sessions. */
  pending(): (PendingRequest & { sessionId: string })[] {
    return [...this.controls.entries()].flatMap(([sessionId, set]) =>
      [...set].flatMap((control) => control.pending().map((request) => ({ ...request, sessionId }))),
    );
  }

  /** Whether a run of the session goes on in this process. */
  has(sessionId: string): boolean {
    return this.controls.has(sessionId);
  }

  /** Whether any run goes on in this process. */
  get any(): boolean {
    return this.controls.size > 0;
  }

  /** Stops the runs of one session at their next phase boundary; without one, every run here. */
  stop(sessionId?: string): void {
    for (const [id, set] of this.controls) {
      if (sessionId !== undefined && id !== sessionId) continue;
      for (const control of set) control.stop();
    }
  }

  /** Stops watching for answers (the process closes its store). */
  close(): Promise<void> {
    return this.answerWatch.stop();
  }
}
