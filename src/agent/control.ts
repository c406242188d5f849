import { randomUUID } from 'node:crypto';
import type { FailureDecision, FailureInfo } from '../plan/scheduler.js';
import type { TaskGraph } from '../plan/task-graph.js';
import type { InputReply } from '../tools/types.js';

/** A question the agent puts to the user. */
export interface InputRequest {
  requestId: string;
  question: string;
}

/**
 * Asks the user and resolves with the answer, or null when nobody can answer (no terminal,
 * non-interactive). The signal aborts when the question times out or the run stops.
 */
export type InputProvider = (request: InputRequest, signal: AbortSignal) => Promise<string | null>;

/** How long a question waits for an answer by default before the agent goes on alone. */
export const DEFAULT_INPUT_TIMEOUT_MS = 10 * 60_000;

/** The user's verdict on a proposed plan. */
export type PlanDecision = { decision: 'approve' } | { decision: 'reject'; feedback: string };

/**
 * Shows a plan to the user and resolves with their decision, or null when nobody can decide
 * (non-interactive without --yes: the run ends with needs_input).
 */
export type PlanApprover = (
  plan: { planId: string; graph: TaskGraph },
  signal: AbortSignal,
) => Promise<PlanDecision | null>;

/** Asks what to do about a failed task; null when nobody can answer. */
export type FailureChooser = (info: FailureInfo, signal: AbortSignal) => Promise<FailureDecision | null>;

export interface RunControlOptions {
  /** Who answers questions; absent means nobody can (the run ends with needs_input). */
  inputProvider?: InputProvider;
  inputTimeoutMs?: number;
  /** Who approves plans; absent means nobody can. `autoApprove` (--yes) approves every plan. */
  planApprover?: PlanApprover;
  /** Who decides about failed tasks; absent means the non-interactive policy applies. */
  failureChooser?: FailureChooser;
}

/** Approves every plan: the `--yes` flag. */
export const autoApprove: PlanApprover = async () => ({ decision: 'approve' });

/** Hooks the agent sets to announce questions as events. */
export interface InputObserver {
  asked(request: InputRequest): void;
  answered(request: InputRequest, answer: string): void;
  timedOut(request: InputRequest): void;
}

/**
 * The controls a front end holds over a run: stop it (at the next step boundary; tools and
 * model calls in flight are aborted) and answer the agent's questions.
 */
export class RunControl {
  private readonly abortController = new AbortController();
  private readonly inputProvider: InputProvider | undefined;
  private readonly inputTimeoutMs: number;
  readonly planApprover: PlanApprover | undefined;
  readonly failureChooser: FailureChooser | undefined;
  private unanswered: string | undefined;
  private questions: Promise<InputReply> = Promise.resolve({ status: 'stopped' });
  observer: InputObserver | undefined;

  constructor(options: RunControlOptions = {}) {
    this.inputProvider = options.inputProvider;
    this.inputTimeoutMs = options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS;
    this.planApprover = options.planApprover;
    this.failureChooser = options.failureChooser;
  }

  /** Aborted when the user stops the run. */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get stopRequested(): boolean {
    return this.abortController.signal.aborted;
  }

  /** Requests a stop: whatever is in flight is aborted and the loop ends at the next boundary. */
  stop(): void {
    if (!this.abortController.signal.aborted) this.abortController.abort(new Error('stopped by the user'));
  }

  /** The question nobody could answer, when the run must end with status needs_input. */
  get pendingQuestion(): string | undefined {
    return this.unanswered;
  }

  /** Records that the run cannot go on without an answer nobody can give now. */
  markNeedsInput(question: string): void {
    this.unanswered = question;
  }

  /**
   * Asks the user; never throws. Questions from tasks running in parallel are asked one after
   * another. `signal` (the asking task's) ends the question when that task is stopped.
   */
  requestInput(question: string, signal?: AbortSignal): Promise<InputReply> {
    const turn = this.questions.then(() => this.ask(question, signal));
    this.questions = turn;
    return turn;
  }

  private async ask(question: string, taskSignal: AbortSignal | undefined): Promise<InputReply> {
    if (this.stopRequested || taskSignal?.aborted) return { status: 'stopped' };
    const request: InputRequest = { requestId: randomUUID(), question };
    this.observer?.asked(request);
    if (!this.inputProvider) {
      this.unanswered = question;
      return { status: 'unavailable' };
    }
    const timeout = AbortSignal.timeout(this.inputTimeoutMs);
    const signal = AbortSignal.any([timeout, this.signal, ...(taskSignal ? [taskSignal] : [])]);
    const ended = new Promise<'ended'>((resolve) =>
      signal.addEventListener('abort', () => resolve('ended'), { once: true }),
    );
    let answer: string | null | 'ended';
    try {
      answer = await Promise.race([this.inputProvider(request, signal), ended]);
    } catch {
      answer = signal.aborted ? 'ended' : null;
    }
    if (answer === 'ended') {
      if (!timeout.aborted) return { status: 'stopped' };
      this.observer?.timedOut(request);
      return { status: 'timeout' };
    }
    if (answer === null) {
      this.unanswered = question;
      return { status: 'unavailable' };
    }
    this.observer?.answered(request, answer);
    return { status: 'answered', answer };
  }
}
