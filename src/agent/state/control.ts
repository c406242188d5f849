import type { FailureDecision, FailureInfo } from '../../plan/scheduler.js';
import type { InputReply } from '../../tools/types.js';
import { DEFAULT_INPUT_TIMEOUT_MS } from './defaults.js';
import type { Emit } from './emit.js';
import {
  type AnswerResult,
  type ApprovalDecision,
  type FailureChoice,
  type PendingRequest,
  PendingRequests,
  type RequestAnswer,
} from './requests.js';
import { type SubagentTag, subagentFields } from './subagent-tag.js';

/** A request the run now waits on, as the waitingForInput hooks get it on stdin. */
export interface WaitingRequest {
  request_id: string;
  /** `input` (a question), `approval`, `plan` or `failure`. */
  kind: string;
  question?: string;
  task_id?: string;
}

/** The user's verdict on a proposed plan. */
export type PlanDecision = { decision: 'approve' } | { decision: 'reject'; feedback: string };

/**
 * Who answers each kind of request of a run. `ask`: a front end answers through the runtime
 * (the request goes out as an event with an id and the run waits). The other values are the
 * non-interactive rules, answering at once: `nobody` (the run ends with needs_input),
 * `approve` (`--yes`), `abort` / `skip` (`--on-failure`).
 */
export interface RequestPolicy {
  input: 'ask' | 'nobody';
  /** Tool calls that need approval; like `input` when left out. */
  approval?: 'ask' | 'nobody';
  plan: 'ask' | 'approve' | 'nobody';
  failure: 'ask' | 'abort' | 'skip';
}

/** Nobody answers anything: questions end the run, plans wait, failures abort. */
export const NOBODY_ANSWERS: RequestPolicy = { input: 'nobody', plan: 'nobody', failure: 'abort' };

export interface RunControlOptions {
  /** Who answers which request; nobody when left out. */
  policy?: RequestPolicy;
  inputTimeoutMs?: number;
}

/** Where a question comes from: the step, the plan task, and the asking task's own signal. */
export interface QuestionOrigin {
  step?: number;
  taskId?: string;
  /** Ends the question when the asking task is stopped. */
  signal?: AbortSignal;
  /** The subagent asking (its events name it). */
  subagent?: SubagentTag;
}

/** A tool call to approve: what the approval_requested event shows. */
export interface ApprovalRequest {
  callId: string;
  name: string;
  args: unknown;
  /** The command, or the diff of a file change. */
  preview: string;
  /** What "always" would allow, as its button says (`Always allow \`npm test …\``). */
  always: string;
  /** Where a command's operators are in the preview ([start, end) in UTF-16 code units). */
  operators?: [number, number][];
  /** The run's end reason when nobody can answer: names the flag that allows the call. */
  unavailable: string;
  /** The call is a task's check from the approved plan. */
  check?: boolean;
}

/** The user's answer to an approval, or why there is none. */
export type ApprovalReply =
  | { status: 'answered'; decision: ApprovalDecision; reason?: string }
  | { status: 'stopped' }
  /** No one can answer (non-interactive): the run ends with needs_input. */
  | { status: 'unavailable' };

/**
 * What a front end holds over a run, through the runtime: stop it (at the next phase boundary;
 * tools and model calls in flight are aborted) and answer its requests. The run never calls a
 * front end: each decision it needs goes out as an event carrying a request id, and comes back
 * through `answer`.
 */
export class RunControl {
  private readonly abortController = new AbortController();
  private readonly policy: RequestPolicy;
  private readonly inputTimeoutMs: number;
  private readonly requests = new PendingRequests();
  private unanswered: string | undefined;
  private questions: Promise<InputReply> = Promise.resolve({ status: 'stopped' });
  private emit: Emit = () => {};
  private currentStep: () => number = () => 0;
  private waiting: (request: WaitingRequest) => void = () => {};
  /** Failure decisions given to an earlier run that ended before it took them, by task (see `decideAhead`). */
  private readonly givenDecisions = new Map<string, Extract<RequestAnswer, { kind: 'failure' }>>();
  /** Approvals given for a call an earlier run asked about (see `approveAhead`). */
  private readonly givenApprovals: { name: string; preview: string; reply: ApprovalReply }[] = [];

  constructor(options: RunControlOptions = {}) {
    this.policy = options.policy ?? NOBODY_ANSWERS;
    this.inputTimeoutMs = options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS;
  }

  /** Connects the control to its run: where request events go, and the run's current step. */
  attach(run: { emit: Emit; step: () => number; waiting?: (request: WaitingRequest) => void }): void {
    this.emit = run.emit;
    this.currentStep = run.step;
    this.waiting = run.waiting ?? (() => {});
  }

  /** Waits for a front end's answer, telling the run's `waiting` listener (the waitingForInput hooks) first. */
  private waitFor(request: PendingRequest, signal: AbortSignal): Promise<RequestAnswer | undefined> {
    const answer = this.requests.wait(request, signal);
    this.waiting({
      request_id: request.requestId,
      kind: request.kind,
      ...(request.question !== undefined ? { question: request.question } : {}),
      ...(request.taskId !== undefined ? { task_id: request.taskId } : {}),
    });
    return answer;
  }

  /** Aborted when the user stops the run. */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get stopRequested(): boolean {
    return this.abortController.signal.aborted;
  }

  /**
   * Requests a stop: whatever is in flight is aborted and the loop ends at the next boundary;
   * `reason` says why when it was not the user.
   */
  stop(reason = 'stopped by the user'): void {
    if (!this.abortController.signal.aborted) this.abortController.abort(new Error(reason));
  }

  /** The question nobody could answer, when the run must end with status needs_input. */
  get pendingQuestion(): string | undefined {
    return this.unanswered;
  }

  /** Records that the run cannot go on without an answer nobody can give now. */
  markNeedsInput(question: string): void {
    this.unanswered = question;
  }

  /** The requests waiting for an answer now. */
  pending(): ReturnType<PendingRequests['list']> {
    return this.requests.list();
  }

  /** Answers a pending request; says why when it cannot be (unknown id, wrong kind of answer). */
  answer(requestId: string, answer: RequestAnswer): AnswerResult {
    return this.requests.answer(requestId, answer);
  }

  /**
   * Asks the user; never throws. Questions from tasks running in parallel are asked one after
   * another; each ends when answered, when it times out, or when the run or its task stops.
   */
  requestInput(question: string, origin: QuestionOrigin = {}): Promise<InputReply> {
    const turn = this.questions.then(() => this.ask(question, origin));
    this.questions = turn;
    return turn;
  }

  private async ask(question: string, origin: QuestionOrigin): Promise<InputReply> {
    if (this.stopRequested || origin.signal?.aborted) return { status: 'stopped' };
    const requestId = crypto.randomUUID();
    const event = {
      type: 'agent_update' as const,
      update_type: 'agent_request_input' as const,
      step: origin.step ?? this.currentStep(),
      request_id: requestId,
      question,
      task_id: origin.taskId,
      ...subagentFields(origin.subagent),
    };
    if (this.policy.input === 'nobody') {
      this.emit(event);
      this.unanswered = question;
      return { status: 'unavailable' };
    }
    const timeout = AbortSignal.timeout(this.inputTimeoutMs);
    const signal = AbortSignal.any([timeout, this.signal, ...(origin.signal ? [origin.signal] : [])]);
    const answer = this.waitFor({ requestId, kind: 'input', question }, signal);
    this.emit(event);
    const reply = await answer;
    if (reply === undefined) {
      if (!timeout.aborted) return { status: 'stopped' };
      this.emit({ type: 'agent_update', update_type: 'agent_request_input_timeout', request_id: requestId });
      return { status: 'timeout' };
    }
    const content = reply.kind === 'input' ? reply.content : '';
    this.emit({ type: 'agent_update', update_type: 'agent_user_input', request_id: requestId, content });
    return { status: 'answered', answer: content };
  }

  /**
   * An approval the user gave (from any process, through the store) for a call an earlier run of
   * the session asked about and could not wait for: the next request for the same call (its tool
   * and preview) is answered with it at once, even when nobody could be asked. Used once.
   */
  approveAhead(call: { name: string; preview: string }, decision: ApprovalDecision, reason?: string): void {
    this.givenApprovals.push({
      ...call,
      reply: { status: 'answered', decision, ...(reason ? { reason } : {}) },
    });
  }

  /**
   * Asks the user to approve a tool call (an approval_requested event) and waits, with no time
   * limit, until a front end answers or the run or task stops. When nobody can answer, the event
   * still goes out and the run is marked to end with needs_input, `request.unavailable` its reason.
   */
  async requestApproval(request: ApprovalRequest, origin: QuestionOrigin = {}): Promise<ApprovalReply> {
    if (this.stopRequested || origin.signal?.aborted) return { status: 'stopped' };
    const given = this.givenApprovals.findIndex(
      (approval) => approval.name === request.name && approval.preview === request.preview,
    );
    if (given >= 0) return this.givenApprovals.splice(given, 1)[0]!.reply;
    const requestId = crypto.randomUUID();
    const event = {
      type: 'agent_update' as const,
      update_type: 'approval_requested' as const,
      request_id: requestId,
      call_id: request.callId,
      name: request.name,
      args: request.args,
      preview: request.preview,
      always: request.always,
      ...(request.operators ? { operators: request.operators } : {}),
      ...(request.check ? { check: true } : {}),
      task_id: origin.taskId,
      ...subagentFields(origin.subagent),
    };
    if ((this.policy.approval ?? this.policy.input) === 'nobody') {
      this.emit(event);
      this.unanswered ??= request.unavailable;
      return { status: 'unavailable' };
    }
    const signal = AbortSignal.any([this.signal, ...(origin.signal ? [origin.signal] : [])]);
    const answer = this.waitFor(
      { requestId, kind: 'approval', taskId: origin.taskId, callId: request.callId },
      signal,
    );
    this.emit(event);
    const reply = await answer;
    if (reply?.kind !== 'approval') return { status: 'stopped' };
    return {
      status: 'answered',
      decision: reply.decision,
      ...(reply.reason ? { reason: reply.reason } : {}),
    };
  }

  /**
   * Waits for the user's verdict on a plan whose plan_proposed event is out (the plan id is the
   * request id); null when nobody can decide (non-interactive without --yes) or the run stops.
   */
  async approvePlan(planId: string): Promise<PlanDecision | null> {
    if (this.policy.plan === 'approve') return { decision: 'approve' };
    if (this.policy.plan === 'nobody' || this.stopRequested) return null;
    const reply = await this.waitFor({ requestId: planId, kind: 'plan' }, this.signal);
    if (reply?.kind !== 'plan') return null;
    return reply.decision === 'approve'
      ? { decision: 'approve' }
      : { decision: 'reject', feedback: reply.feedback ?? '' };
  }

  /**
   * A failure decision the user gave (through the store) about a plan task while an earlier run
   * waited for it, which that run never took (its process was killed): the next decision asked
   * about the same task is this one, at once. Used once.
   */
  decideAhead(taskId: string, answer: Extract<RequestAnswer, { kind: 'failure' }>): void {
    this.givenDecisions.set(taskId, answer);
  }

  /**
   * Asks what to do about a failed task (a failure_decision_requested event) and waits; the
   * non-interactive rule (`--on-failure`) answers at once. Abort when the run stops meanwhile.
   */
  async decideFailure(info: FailureInfo, signal: AbortSignal): Promise<FailureDecision> {
    const given = this.givenDecisions.get(info.task.id);
    if (given && (given.decision !== 'resolve' || info.conflict)) {
      this.givenDecisions.delete(info.task.id);
      this.emit({
        type: 'agent_update',
        update_type: 'agent_note',
        step: this.currentStep(),
        content: `The decision given before the last worker stopped applies to task ${info.task.id}: ${given.decision}.`,
        task_id: info.task.id,
      });
      return given.decision === 'revise'
        ? { action: 'revise', feedback: given.feedback }
        : { action: given.decision };
    }
    if (this.policy.failure !== 'ask') return { action: this.policy.failure };
    const requestId = crypto.randomUUID();
    // Resolve only for a merge conflict: the task's worktree has its work and the goal's.
    const choices: FailureChoice[] = info.conflict
      ? ['retry', 'resolve', 'skip', 'revise', 'abort']
      : ['retry', 'skip', 'revise', 'abort'];
    const answer = this.waitFor({ requestId, kind: 'failure', taskId: info.task.id, choices }, signal);
    this.emit({
      type: 'agent_update',
      update_type: 'failure_decision_requested',
      request_id: requestId,
      task_id: info.task.id,
      reason: info.reason,
      blocked: info.blocked.map((task) => task.id),
      choices,
    });
    const reply = await answer;
    if (reply?.kind !== 'failure') return { action: 'abort' };
    return reply.decision === 'revise'
      ? { action: 'revise', feedback: reply.feedback }
      : { action: reply.decision };
  }
}
