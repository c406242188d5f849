import { z } from 'zod';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { truncateMiddle } from '../text/truncate.js';

/** The most characters of output sent to the model; the head and the tail are kept. */
export const MAX_ANALYZED_OUTPUT_CHARS = 60_000;
/** The UI shows the start of the answer, cut to this length. */
const DISPLAY_CHARS = 100;

/** What the focused model call is told to do. */
export const ANALYZE_OUTPUT_SYSTEM_PROMPT = [
  'You analyse the output of a command, or an error, for a coding agent that must act on it.',
  'Answer briefly and concretely, in this order:',
  '1. Root cause: what actually went wrong (the first real error, not the follow-on noise).',
  '2. Location: the file and line it points to, if the output names one.',
  '3. Fix: the concrete change or command that resolves it.',
  'If the output shows no failure, say so in one sentence. Do not repeat the output; do not guess beyond it.',
].join('\n');

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    output: z.string().min(1).describe('The output or error text, as printed.'),
    question: z.string().min(1).describe('What you want to know.'),
  }),
);

/** analyze_output: a focused model call that explains output or an error and proposes the fix. */
export const analyzeOutputTool = defineTool({
  name: 'analyze_output',
  description: 'A focused model call that explains an output or error: root cause, file and line, fix.',
  whenToUse:
    'Long or confusing output (a stack trace, an error cascade, failing tests) whose cause is not obvious, or after the same fix failed twice.',
  whenNotToUse: 'An error that is already clear (fix it); it sees only the text you pass in.',
  parameters: builtSchema('analyze_output', parameters),
  readOnly: true,
  async execute(args, ctx) {
    const prompt = `${args.question}\n\n<output>\n${truncateMiddle(args.output, MAX_ANALYZED_OUTPUT_CHARS)}\n</output>`;
    const answer = (
      await ctx.model.complete({ system: ANALYZE_OUTPUT_SYSTEM_PROMPT, prompt, signal: ctx.signal })
    ).trim();
    if (answer === '') {
      return {
        output: 'The analysis returned no answer. Read the output yourself.',
        display: 'no answer',
        isError: true,
      };
    }
    const firstLine = answer.split('\n')[0] ?? '';
    return {
      output: answer,
      display: firstLine.length > DISPLAY_CHARS ? `${firstLine.slice(0, DISPLAY_CHARS)}…` : firstLine,
      isError: false,
    };
  },
});
