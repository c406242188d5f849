import { z } from 'zod';
import { defineTool } from './define-tool.js';
import type { InputReply, ToolResult } from './types.js';

const parameters = z.object({
  question: z
    .string()
    .min(1)
    .describe('One clear question; offer the options you see, and say what you will do by default.'),
});

/** request_input: asks the user a question and waits for the answer (or a timeout). */
export const requestInputTool = defineTool({
  name: 'request_input',
  description:
    'Asks the user a question and waits for the answer. The run pauses until the user answers or ' +
    'a timeout passes; in a run nobody watches, no answer can come.',
  whenToUse:
    'When the goal is ambiguous in a way that changes the result and no file or command can settle ' +
    'it, when an action is destructive or irreversible and was not asked for, or when the same ' +
    'action keeps failing and you need a decision.',
  whenNotToUse:
    'Not for things you can find out yourself (read the files, run the command), not to ask ' +
    'permission for ordinary steps of the task, and not to report progress or results.',
  parameters,
  readOnly: true,
  async execute(args, ctx) {
    return replyResult(await ctx.control.requestInput(args.question, ctx.signal));
  },
});

function replyResult(reply: InputReply): ToolResult {
  switch (reply.status) {
    case 'answered':
      return { output: `The user answered: ${reply.answer}`, display: 'answered', isError: false };
    case 'timeout':
      return {
        output:
          'The user did not answer in time. Continue with your best judgement, and state the ' +
          'assumption you made in your summary or final answer.',
        display: 'no answer in time',
        isError: false,
      };
    case 'stopped':
      return { output: 'The run was stopped before the user answered.', display: 'stopped', isError: false };
    case 'unavailable':
      return {
        output:
          'No user can answer in this run: it is non-interactive. The run will end here, waiting ' +
          'for input, so that someone can answer the question and continue it.',
        display: 'nobody to answer',
        isError: false,
      };
  }
}
