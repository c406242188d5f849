/** The decisions a run can wait for. */
export type RequestKind = 'input' | 'plan' | 'failure' | 'approval';

/** What the user chose for a failed task. */
export type FailureChoice = 'retry' | 'resolve' | 'skip' | 'revise' | 'abort';

/** What the user said about a tool call that needs approval ("always": this and similar calls, this session). */
export type ApprovalDecision = 'allow' | 'deny' | 'always';

/** An answer to a request, as a front end gives it through the runtime. */
export type RequestAnswer =
  | { kind: 'input'; content: string }
  | { kind: 'plan'; decision: 'approve' | 'reject'; feedback?: string }
  | { kind: 'failure'; decision: FailureChoice; feedback?: string }
  /** `reason` (with deny) is passed to the model. */
  | { kind: 'approval'; decision: ApprovalDecision; reason?: string };

/** A request waiting for its answer. */
export interface PendingRequest {
  requestId: string;
  kind: RequestKind;
  /** The question (input requests). */
  question?: string;
  /** The failed task (failure decisions), or the task whose call is asked (approvals). */
  taskId?: string;
  /** The tool call asked about (approvals). */
  callId?: string;
  /** The choices offered (failure decisions): another answer is refused. */
  choices?: readonly FailureChoice[];
}

/** Whether an answer was taken, and why not when it was not. */
export type AnswerResult = { ok: true } | { ok: false; error: string };

interface Waiting {
  request: PendingRequest;
  resolve: (answer: RequestAnswer | undefined) => void;
}

/**
 * The requests of one run that wait for an answer, by id. An answer reaches the request it
 * names, once; a request ends without one when its signal aborts (timeout, stop).
 */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiting>();

  /** Registers a request and resolves with its answer, or undefined when `signal` aborts first. */
  wait(request: PendingRequest, signal: AbortSignal): Promise<RequestAnswer | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiting.delete(request.requestId);
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.requestId, {
        request,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          this.waiting.delete(request.requestId);
          resolve(answer);
        },
      });
    });
  }

  /** Delivers an answer to the request it names. */
  answer(requestId: string, answer: RequestAnswer): AnswerResult {
    const entry = this.waiting.get(requestId);
    if (!entry) return { ok: false, error: `No request ${requestId} is waiting for an answer.` };
    const mismatch = answerMismatch(
      { id: requestId, kind: entry.request.kind, choices: entry.request.choices },
      answer,
    );
    if (mismatch !== undefined) return { ok: false, error: mismatch };
    entry.resolve(answer);
    return { ok: true };
  }

  /** The requests waiting now. */
  list(): PendingRequest[] {
    return [...this.waiting.values()].map((entry) => entry.request);
  }
}

/**
 * Why an answer does not fit a request (another kind, a choice not offered); undefined when it
 * fits. The same for a request waiting in this process and one stored (answered from elsewhere).
 */
export function answerMismatch(
  request: { id: string; kind: string; choices?: readonly string[] | null },
  answer: RequestAnswer,
): string | undefined {
  if (request.kind !== answer.kind)
    return `Request ${request.id} waits for ${withArticle(request.kind)} answer, not ${withArticle(answer.kind)} answer.`;
  const { choices } = request;
  if (answer.kind !== 'failure' || !choices || choices.includes(answer.decision)) return undefined;
  return `Request ${request.id} offers ${choices.join(', ')}, not ${answer.decision}${answer.decision === 'resolve' ? ' (only a merge conflict can be resolved)' : ''}.`;
}

/** `an approval`, `a plan`. */
function withArticle(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
