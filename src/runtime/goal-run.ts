import type { RunStatus, ServerEvent } from '../events/registry.js';
import { EventQueue } from './event-queue.js';
import type { Runtime, Submission, SubmitOutcome } from './runtime.js';

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
  /** The title of the task running ahead of it, when it was queued behind one. */
  running?: string;
}

/**
 * How this process is done with a goal: its run ended (here, or in the process that ran it) and
 * the queue work this process ran after it is done too; `queued` when it was only queued.
 */
export interface GoalSettled {
  sessionId: string;
  status: RunStatus | 'queued';
  finalAnswer?: string;
  /** The user stopped it (or the queue work run after it here), or cancelled it while it waited. */
  stopped: boolean;
  /** Cancelled while it waited, before it ran: the session made for it held nothing and was removed. */
  sessionRemoved?: boolean;
}

/** How a goal is followed (see `RunOptions`). */
export interface GoalRunOptions {
  /** `false`: a goal that has to queue is left in the queue (`settled` says `queued`). */
  wait?: boolean;
  /** Its events while another process runs it (this process's own runs' come through `Taskweave.onEvent`). */
  following?: (event: ServerEvent) => void;
}

/**
 * One goal submitted through the runtime, as the SDK gives it: an async iterator of the events
 * of its session from the moment it was queued to its `response_complete` (each event once, in
 * seq order), `started` once the queue took it, `result` once it ended and `settled` once this
 * process is done with it. A queued goal runs here when the queue frees first. Following its
 * events starts with the iteration or `result` (they are replayed from the session's log): a
 * caller that needs neither keeps nothing of them. Leaving the loop early stops following, not
 * the run (`Taskweave.stop` stops it).
 */
export class GoalRun implements AsyncIterable<ServerEvent> {
  /** Where the goal went; rejects when the runtime refused it (RuntimeInputError: empty goal, unknown session). */
  readonly started: Promise<GoalStart>;
  /** When this process is done with the goal (see GoalSettled); rejects when it could not run. */
  readonly settled: Promise<GoalSettled>;
  private readonly finished: Promise<GoalResult>;
  private settleResult!: { resolve: (result: GoalResult) => void; reject: (error: unknown) => void };
  private readonly events: EventQueue<ServerEvent>;
  private following = false;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly runtime: Runtime,
    private readonly submitted: Promise<Submission>,
    options: GoalRunOptions = {},
  ) {
    this.events = new EventQueue(() => this.unsubscribe());
    this.finished = new Promise((resolve, reject) => {
      this.settleResult = { resolve, reject };
    });
    // Read by the iterator instead: a caller that only iterates sees no unhandled rejection.
    this.finished.catch(() => {});
    this.started = submitted.then((submission) => ({
      sessionId: sessionOf(submission),
      taskId: submission.task.id,
      position: submission.kind === 'started' ? 0 : submission.position,
      ...(submission.kind === 'queued' && submission.running ? { running: submission.running.title } : {}),
    }));
    this.settled = submitted.then((submission) => settle(runtime, submission, options));
    // A refused goal rejects all three: a caller that reads only one sees no unhandled rejection.
    this.started.catch(() => {});
    this.settled.catch((error: unknown) => this.fail(error));
  }

  /** How the run ended, from its `response_complete`; rejects when it could not run (or the goal was refused). */
  get result(): Promise<GoalResult> {
    this.follow();
    return this.finished;
  }

  [Symbol.asyncIterator](): AsyncIterator<ServerEvent> {
    this.follow();
    return this.events;
  }

  /** Starts following the goal's session from the moment it was queued, once. */
  private follow(): void {
    if (this.following) return;
    this.following = true;
    this.submitted.then(
      (submission) => {
        if (this.events.isEnded) return;
        const sessionId = sessionOf(submission);
        this.unsubscribe = this.runtime.subscribe(sessionId, submission.afterSeq, (event) => {
          if (event.seq <= submission.afterSeq) return;
          this.events.push(event);
          if (event.type !== 'response_complete') return;
          this.unsubscribe();
          this.events.end();
          this.settleResult.resolve({
            sessionId,
            status: event.status,
            ...(event.final_answer === undefined ? {} : { finalAnswer: event.final_answer }),
          });
        });
      },
      (error: unknown) => this.fail(error),
    );
  }

  private fail(error: unknown): void {
    this.unsubscribe();
    this.events.fail(error);
    this.settleResult.reject(error);
  }
}

function sessionOf(submission: Submission): string {
  return submission.kind === 'started' ? submission.sessionId : (submission.task.sessionId ?? '');
}

/** Waits for a submitted goal as this process is concerned: its run here, its turn, or nothing. */
async function settle(
  runtime: Runtime,
  submission: Submission,
  options: GoalRunOptions,
): Promise<GoalSettled> {
  if (submission.kind === 'started') return ranHere(await submission.done);
  if (options.wait === false) return { sessionId: sessionOf(submission), status: 'queued', stopped: false };
  const outcome = await runtime.waitForTurn(submission, options.following ?? (() => {}));
  if (outcome.kind === 'ran_here') return ranHere(outcome.outcome);
  return {
    sessionId: outcome.sessionId,
    status: outcome.status,
    ...(outcome.finalAnswer === undefined ? {} : { finalAnswer: outcome.finalAnswer }),
    stopped: outcome.cancelled,
    ...(outcome.sessionRemoved ? { sessionRemoved: true } : {}),
  };
}

function ranHere({ result, drained }: SubmitOutcome): GoalSettled {
  return {
    sessionId: result.sessionId,
    status: result.status,
    ...(result.finalAnswer === undefined ? {} : { finalAnswer: result.finalAnswer }),
    stopped: result.cancelled || drained?.stopped === true,
  };
}
