import { createInterface } from 'node:readline/promises';
import type { WaitingReply, WaitingSession } from '../../runtime/index.js';
import { proposedPlanLines } from './plan-lines.js';
import type { Style } from './terminal.js';

/** What the user gave on the command line for a session that waits. */
export interface GivenReply {
  answer?: string;
  /** `--yes`: approve the waiting plan. */
  yes?: boolean;
  /** `--approval <mode>` was given: the waiting call is allowed or asked again under it. */
  approval?: string;
}

/** The person at the terminal, when there is one. */
export interface ReplyTerminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { columns?: number };
  style: Style;
}

/**
 * The reply to what a session waits for: from the command line when given there, else asked on
 * the terminal; undefined when there is neither (or the user pressed Ctrl-C at the prompt).
 */
export async function waitingReply(
  waiting: WaitingSession,
  given: GivenReply,
  terminal: ReplyTerminal | undefined,
): Promise<WaitingReply | undefined> {
  const { waitingFor } = waiting;
  switch (waitingFor.kind) {
    case 'answer':
      // A plan task's answer goes to that task, which goes on from it when the plan resumes.
      if (given.answer !== undefined) return { kind: 'answer', content: given.answer };
      if (!terminal) return undefined;
      return withAnswer(await ask(terminal, `? ${waitingFor.question}\nanswer › `));
    case 'plan': {
      if (given.yes) return { kind: 'plan', decision: 'approve' };
      if (!terminal) return undefined;
      const lines = proposedPlanLines(waitingFor.event, terminal.style, terminal.output.columns);
      const answer = await ask(
        terminal,
        `${lines.join('\n')}\nApprove this plan? [Y]es, or type what to change: `,
      );
      if (answer === undefined) return undefined;
      const text = answer.trim();
      if (text === '' || /^(y|yes|ok)$/i.test(text)) return { kind: 'plan', decision: 'approve' };
      return { kind: 'plan', decision: 'reject', feedback: /^(n|no)$/i.test(text) ? '' : text };
    }
    case 'approval':
      return given.approval !== undefined || terminal ? { kind: 'go_on' } : undefined;
  }
}

function withAnswer(content: string | undefined): WaitingReply | undefined {
  return content === undefined ? undefined : { kind: 'answer', content };
}

/** One line from the terminal; undefined on Ctrl-C or end of input. */
async function ask(terminal: ReplyTerminal, question: string): Promise<string | undefined> {
  const prompt = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  const controller = new AbortController();
  prompt.on('SIGINT', () => controller.abort());
  prompt.on('close', () => controller.abort());
  try {
    return await prompt.question(question, { signal: controller.signal });
  } catch {
    return undefined;
  } finally {
    prompt.close();
  }
}
