import { z } from 'zod';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import type { InputReply, ToolResult } from '../types.js';

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    question: z
      .string()
      .min(1)
      .describe('One clear question; offer the options you see, and say what you will do by default.'),
  }),
);

/** request_input: asks the user a question and waits for the answer (or a timeout). */
export const requestInputTool = defineTool({
  name: 'request_input',
  description: 'Asks the user a question and waits for the answer.',
  whenToUse:
    'An ambiguity that changes the result and that nothing in the workspace settles; a destructive step nobody asked for; a repeated failure that needs a decision.',
  whenNotToUse: 'What you can find out yourself, permission for ordinary steps, progress reports.',
  parameters: builtSchema('request_input', parameters),
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
        display: 'waits for an answer',
        isError: false,
      };
  }
}
