import type { RunStatus, ServerEvent } from '../events/registry.js';
import { EventQueue } from './event-queue.js';
import type { Runtime, Submission } from './runtime.js';

/** How a goal's run ended: the `response_complete` event's status and answer. */
export interface GoalResult {
  sessionId: string;
  status: RunStatus;
  finalAnswer?: string;
}

/** Where a submitted goal went: its session, its queue task, its place in the queue (0: started). */
export interface GoalStart {
  sessionId: string;
  taskId: string;
  position: number;
}

/**
 * One goal submitted through the runtime, as the SDK gives it: an async iterator of the events
 * of its session from the moment it was queued to its `response_complete` (each event once, in
 * seq order), `started` once the queue took it and `result` once it ended. Leaving the loop
 * early stops following, not the run (`Taskweave.stop` stops it).
 */
export class GoalRun implements AsyncIterable<ServerEvent> {
  /** Where the goal went; rejects when the runtime refused it (RuntimeInputError: empty goal, unknown session). */
  readonly started: Promise<GoalStart>;
  /** How the run ended; rejects when it could not run (or the goal was refused). */
  readonly result: Promise<GoalResult>;
  private readonly events: EventQueue<ServerEvent>;
  private unsubscribe: () => void = () => {};

  constructor(runtime: Runtime, submitted: Promise<Submission>) {
    this.events = new EventQueue(() => this.unsubscribe());
    let settle!: { resolve: (result: GoalResult) => void; reject: (error: unknown) => void };
    this.result = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Read by the iterator instead: a caller that only iterates sees no unhandled rejection.
    this.result.catch(() => {});
    this.started = submitted.then((submission) => {
      const sessionId =
        submission.kind === 'started' ? submission.sessionId : (submission.task.sessionId ?? '');
      const onEvent = (event: ServerEvent) => {
        if (event.seq <= submission.afterSeq) return;
        this.events.push(event);
        if (event.type !== 'response_complete') return;
        this.unsubscribe();
        this.events.end();
        settle.resolve({
          sessionId,
          status: event.status,
          ...(event.final_answer === undefined ? {} : { finalAnswer: event.final_answer }),
        });
      };
      const failed = (error: unknown) => {
        this.unsubscribe();
        this.events.fail(error);
        settle.reject(error);
      };
      this.unsubscribe = runtime.subscribe(sessionId, submission.afterSeq, onEvent);
      // A queued goal runs here when the queue frees first (or in the process that runs the queue):
      // either way its events reach the session's subscription.
      const done =
        submission.kind === 'started' ? submission.done : runtime.waitForTurn(submission, () => {});
      done.catch(failed);
      return {
        sessionId,
        taskId: submission.task.id,
        position: submission.kind === 'started' ? 0 : submission.position,
      };
    });
    this.started.catch((error: unknown) => {
      this.events.fail(error);
      settle.reject(error);
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<ServerEvent> {
    return this.events;
  }
}
