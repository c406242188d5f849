import { createInterface } from 'node:readline/promises';
import type { ServerEvent } from '../../events/registry.js';
import type { FailureChoice, RequestAnswer, Taskweave } from '../../runtime/index.js';
import { wrapWords } from '../render/text-wrap.js';

/** The terminal the questions go to, and what Ctrl-C at a prompt does (stop the run). */
export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Called when the user presses Ctrl-C at a prompt (readline takes the key from the process). */
  onInterrupt: () => void;
  /** Output of other work is held back while the user types (and released after). */
  onPromptStart?: () => void;
  onPromptEnd?: () => void;
}

/** Which requests the person at the terminal answers (the others have a non-interactive rule). */
export interface TerminalAnswers {
  input: boolean;
  plan: boolean;
  failure: boolean;
  /** Tool calls that need approval (commands, file changes, MCP tools). */
  approval?: boolean;
}

const FAILURE_CHOICES: Record<string, FailureChoice> = {
  r: 'retry',
  e: 'resolve',
  s: 'skip',
  v: 'revise',
  a: 'abort',
};

/**
 * The person at the terminal as one responder among others: it watches the events, asks the
 * requests it is meant to answer (one prompt at a time), and answers them through the runtime.
 * A prompt closes by itself when its request ends without it (timed out, answered elsewhere,
 * its task or the run ended).
 */
export class TerminalResponder {
  private prompts: Promise<void> = Promise.resolve();
  /** Questions of one exchange open now: other work's output stays held until the last is answered. */
  private asking = 0;
  /** Open and queued prompts by request id, with what ends them. */
  private readonly open = new Map<
    string,
    { controller: AbortController; taskId?: string; callId?: string }
  >();

  constructor(
    private readonly taskweave: Taskweave,
    private readonly terminal: Terminal,
    private readonly answers: TerminalAnswers,
  ) {}

  /** Looks at one event: asks what is asked, closes prompts whose request ended. */
  handle(event: ServerEvent): void {
    if (event.type === 'response_complete') {
      this.closeAll();
      return;
    }
    if (event.type === 'tool_start') {
      // The call was approved or refused elsewhere (the web UI): its prompt here is void.
      for (const [id, entry] of this.open) if (entry.callId === event.call_id) this.close(id);
      return;
    }
    if (event.type !== 'agent_update') return;
    switch (event.update_type) {
      case 'approval_requested':
        if (this.answers.approval)
          this.enqueue(
            event.request_id,
            event.task_id,
            (signal) => this.askApproval(event.request_id, approvalQuestion(event), signal),
            event.call_id,
          );
        return;
      case 'agent_request_input':
        if (this.answers.input)
          this.enqueue(event.request_id, event.task_id, (signal) => this.askInput(event.request_id, signal));
        return;
      case 'plan_proposed':
        if (this.answers.plan)
          this.enqueue(event.plan_id, undefined, (signal) => this.askPlan(event.plan_id, signal));
        return;
      case 'failure_decision_requested':
        if (this.answers.failure) {
          const blocked = event.blocked.length;
          const resolvable = event.choices.includes('resolve');
          const question = `Task ${event.task_id} failed${blocked > 0 ? ` (${blocked === 1 ? '1 task waits' : `${blocked} tasks wait`} on it)` : ''}. [r]etry, ${resolvable ? 'r[e]solve in its worktree, ' : ''}[s]kip, re[v]ise the plan, or [a]bort? `;
          this.enqueue(event.request_id, undefined, (signal) =>
            this.askFailure(event.request_id, question, event.choices, signal),
          );
        }
        return;
      case 'agent_request_input_timeout':
      case 'agent_user_input':
        this.close(event.request_id);
        return;
      case 'plan_approved':
      case 'plan_rejected':
        this.close(event.plan_id);
        return;
      case 'task_completed':
      case 'task_failed':
      case 'task_skipped':
      case 'task_blocked':
        for (const [id, entry] of this.open) if (entry.taskId === event.task_id) this.close(id);
        return;
      case 'agent_stopped':
      case 'agent_completion':
        this.closeAll();
        return;
      default:
        return;
    }
  }

  /** Ends every open and queued prompt (Ctrl-C, the run ended). */
  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }

  private close(requestId: string): void {
    const entry = this.open.get(requestId);
    if (!entry) return;
    this.open.delete(requestId);
    entry.controller.abort();
  }

  private enqueue(
    requestId: string,
    taskId: string | undefined,
    ask: (signal: AbortSignal) => Promise<void>,
    callId?: string,
  ) {
    const controller = new AbortController();
    this.open.set(requestId, { controller, taskId, callId });
    this.prompts = this.prompts.then(async () => {
      if (controller.signal.aborted) return;
      try {
        // The whole exchange (a "no" and its reason, "revise" and what to change) holds other
        // work's output: nothing is printed between a question and the one it leads to.
        await this.exchange(() => ask(controller.signal));
      } catch {
        // The prompt was closed (its request ended, or Ctrl-C): nothing to answer.
      } finally {
        this.open.delete(requestId);
      }
    });
  }

  private send(requestId: string, answer: RequestAnswer): void {
    // A refusal (answered meanwhile on a server sharing the store) shows as that server's answer
    // event; an answer that could not be stored at all is said, never an unhandled rejection.
    this.taskweave.answer(requestId, answer).catch((error: unknown) => {
      this.taskweave.runtime.notice(
        `The answer was not given: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  private async askInput(requestId: string, signal: AbortSignal): Promise<void> {
    // An empty answer is sent as is, so the user can say "just go on".
    const content = await this.ask('answer › ', signal);
    this.send(requestId, { kind: 'input', content });
  }

  private async askPlan(planId: string, signal: AbortSignal): Promise<void> {
    const answer = (await this.ask('Approve this plan? [Y]es, or type what to change: ', signal)).trim();
    if (answer === '' || /^(y|yes|ok)$/i.test(answer)) {
      this.send(planId, { kind: 'plan', decision: 'approve' });
      return;
    }
    this.send(planId, { kind: 'plan', decision: 'reject', feedback: /^(n|no)$/i.test(answer) ? '' : answer });
  }

  private async askFailure(
    requestId: string,
    question: string,
    choices: readonly FailureChoice[],
    signal: AbortSignal,
  ): Promise<void> {
    let prompt = question;
    for (;;) {
      const answer = await this.ask(prompt, signal);
      const typed = FAILURE_CHOICES[answer.trim().toLowerCase().charAt(0)];
      const decision = typed && choices.includes(typed) ? typed : undefined;
      if (decision === 'revise') {
        const feedback = (
          await this.ask('What should change in the plan? (Enter: let the model decide) ', signal)
        ).trim();
        this.send(requestId, { kind: 'failure', decision, ...(feedback ? { feedback } : {}) });
        return;
      }
      if (decision) {
        this.send(requestId, { kind: 'failure', decision });
        return;
      }
      const keys = Object.entries(FAILURE_CHOICES)
        .filter(([, choice]) => choices.includes(choice))
        .map(([key]) => key);
      prompt = `"${answer.trim()}" is not one of the choices. Type ${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}: `;
    }
  }

  private async askApproval(requestId: string, question: string, signal: AbortSignal): Promise<void> {
    let prompt = question;
    for (;;) {
      const answer = (await this.ask(prompt, signal)).trim();
      const choice = answer.toLowerCase();
      if (choice === '' || choice === 'y' || choice === 'yes') {
        this.send(requestId, { kind: 'approval', decision: 'allow' });
        return;
      }
      if (choice === 'a' || choice === 'always') {
        this.send(requestId, { kind: 'approval', decision: 'always' });
        return;
      }
      if (choice === 'n' || choice === 'no') {
        const reason = (await this.ask('Why not? (the model reads this; Enter: no reason) ', signal)).trim();
        this.send(requestId, { kind: 'approval', decision: 'deny', ...(reason ? { reason } : {}) });
        return;
      }
      prompt = `"${answer}" is not one of the choices. Type y, n or a: `;
    }
  }

  /** Runs the questions of one exchange with the terminal held for them from first to last. */
  private async exchange<T>(questions: () => Promise<T>): Promise<T> {
    if (this.asking++ === 0) this.terminal.onPromptStart?.();
    try {
      return await questions();
    } finally {
      if (--this.asking === 0) this.terminal.onPromptEnd?.();
    }
  }

  /** Asks one question; Ctrl-C stops the run (the prompt then ends through its signal). */
  private ask(question: string, signal: AbortSignal): Promise<string> {
    return this.exchange(async () => {
      const { terminal } = this;
      const prompt = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
      prompt.on('SIGINT', terminal.onInterrupt);
      try {
        return await prompt.question(fitQuestion(question, terminal.output), { signal });
      } finally {
        prompt.close();
      }
    });
  }
}

/** The approval prompt, with what "always" would allow in this session (the core's label, as on the web). */
function approvalQuestion(event: { always?: string; task_id?: string }): string {
  return `${event.task_id ? `[${event.task_id}] ` : ''}Allow? [Y]es · [n]o (then say why) · [a] ${event.always ?? 'Always'} (this session): `;
}

/**
 * A question wrapped at word boundaries to the terminal's width (readline lets a long prompt
 * run on and the terminal breaks it mid-word); one trailing space stays before the cursor.
 */
function fitQuestion(question: string, output: NodeJS.WritableStream): string {
  const columns = (output as Partial<NodeJS.WriteStream>).columns;
  if (!columns) return question;
  const rows = question
    .trimEnd()
    .split('\n')
    .flatMap((line) => wrapWords(line, columns - 1));
  return `${rows.join('\n')} `;
}
