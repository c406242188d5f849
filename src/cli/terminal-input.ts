import { createInterface } from 'node:readline/promises';
import type { FailureChooser, InputProvider, PlanApprover } from '../agent/control.js';
import type { FailureDecision } from '../plan/scheduler.js';

/**
 * Asks questions on the terminal. Answers go to the agent; an empty answer is sent as is, so
 * the user can say "just go on".
 */
export function terminalInputProvider(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): InputProvider {
  return async (_request, signal) => {
    const prompt = createInterface({ input, output, terminal: true });
    try {
      return await prompt.question('answer › ', { signal });
    } finally {
      prompt.close();
    }
  };
}

/** Asks on the terminal whether to approve a plan (the plan itself is printed by the renderer). */
export function terminalPlanApprover(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): PlanApprover {
  return async (_plan, signal) => {
    const prompt = createInterface({ input, output, terminal: true });
    try {
      const answer = (
        await prompt.question('Approve this plan? [Y]es, or type what to change: ', { signal })
      ).trim();
      if (answer === '' || /^(y|yes|ok)$/i.test(answer)) return { decision: 'approve' };
      return { decision: 'reject', feedback: /^(n|no)$/i.test(answer) ? '' : answer };
    } finally {
      prompt.close();
    }
  };
}

const FAILURE_CHOICES: Record<string, FailureDecision> = {
  r: { action: 'retry' },
  s: { action: 'skip' },
  v: { action: 'revise' },
  a: { action: 'abort' },
};

/** Asks on the terminal what to do about a failed task. */
export function terminalFailureChooser(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): FailureChooser {
  return async (info, signal) => {
    const prompt = createInterface({ input, output, terminal: true });
    try {
      const blocked = info.blocked.length > 0 ? ` (${info.blocked.length} task(s) wait on it)` : '';
      for (;;) {
        const answer = (
          await prompt.question(
            `Task ${info.task.id} failed${blocked}. [r]etry, [s]kip, re[v]ise the plan, or [a]bort? `,
            {
              signal,
            },
          )
        )
          .trim()
          .toLowerCase();
        const choice = FAILURE_CHOICES[answer.charAt(0)];
        if (choice) return choice;
      }
    } finally {
      prompt.close();
    }
  };
}
