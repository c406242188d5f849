import { createInterface } from 'node:readline/promises';
import type { FailureChooser, InputProvider, PlanApprover } from '../agent/control.js';
import type { FailureDecision } from '../plan/scheduler.js';

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

/** Asks one question; Ctrl-C stops the run (the question then ends through its signal). */
async function ask(terminal: Terminal, question: string, signal: AbortSignal): Promise<string> {
  terminal.onPromptStart?.();
  const prompt = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  prompt.on('SIGINT', terminal.onInterrupt);
  try {
    return await prompt.question(question, { signal });
  } finally {
    prompt.close();
    terminal.onPromptEnd?.();
  }
}

/**
 * Asks the agent's questions on the terminal. Answers go to the agent; an empty answer is sent
 * as is, so the user can say "just go on".
 */
export function terminalInputProvider(terminal: Terminal): InputProvider {
  return (_request, signal) => ask(terminal, 'answer › ', signal);
}

/** Asks on the terminal whether to approve a plan (the plan itself is printed by the renderer). */
export function terminalPlanApprover(terminal: Terminal): PlanApprover {
  return async (_plan, signal) => {
    const answer = (await ask(terminal, 'Approve this plan? [Y]es, or type what to change: ', signal)).trim();
    if (answer === '' || /^(y|yes|ok)$/i.test(answer)) return { decision: 'approve' };
    return { decision: 'reject', feedback: /^(n|no)$/i.test(answer) ? '' : answer };
  };
}

const FAILURE_CHOICES: Record<string, FailureDecision> = {
  r: { action: 'retry' },
  s: { action: 'skip' },
  v: { action: 'revise' },
  a: { action: 'abort' },
};

/** Asks on the terminal what to do about a failed task. */
export function terminalFailureChooser(terminal: Terminal): FailureChooser {
  return async (info, signal) => {
    const blocked = info.blocked.length > 0 ? ` (${info.blocked.length} task(s) wait on it)` : '';
    for (;;) {
      const answer = await ask(
        terminal,
        `Task ${info.task.id} failed${blocked}. [r]etry, [s]kip, re[v]ise the plan, or [a]bort? `,
        signal,
      );
      const choice = FAILURE_CHOICES[answer.trim().toLowerCase().charAt(0)];
      if (choice) return choice;
    }
  };
}
