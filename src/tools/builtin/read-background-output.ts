import { z } from 'zod';
import { stateText } from '../background/background-command.js';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import type { ToolOfferState } from '../types.js';

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    id: z.string().min(1).describe('The id run_command gave the background command (`bg1`).'),
  }),
);

/** read_background_output: a background command's output since the last read, and its state. */
export const readBackgroundOutputTool = defineTool({
  name: 'read_background_output',
  description:
    "Returns a background command's output (stdout and stderr as they came) since you last read it, and whether it still runs or how it ended.",
  whenToUse: 'Checking on a server, watcher or long build started with run_command background: true.',
  whenNotToUse: 'Commands run in the foreground: their whole output is already in their result.',
  parameters: builtSchema('read_background_output', parameters),
  readOnly: true,
  offeredWhen: hasBackgroundCommands,
  async execute(args, ctx) {
    const command = ctx.background?.get(args.id);
    if (command === undefined)
      return unknownCommand(args.id, ctx.background?.list().map((info) => info.id) ?? []);
    const { output, info } = command.read();
    return {
      output: `${info.id} (\`${info.command}\`): ${stateText(info)}\n--- new output ---\n${output || '(none since the last read)'}`,
      display: `${info.id} ${stateText(info)}`,
      isError: false,
    };
  },
});

/**
 * Whether the session has a background command to read or stop: the background tools are
 * offered from the step after run_command started one, and still after it ended (its end
 * notice asks the model to read what it had not read).
 */
export function hasBackgroundCommands(state: ToolOfferState): boolean {
  return (state.background?.count ?? 0) > 0;
}

/** The result for an id no background command of the session has. */
export function unknownCommand(id: string, known: string[]) {
  return {
    output: `There is no background command ${id} in this session. ${known.length === 0 ? 'None was started.' : `Its background commands: ${known.join(', ')}.`}`,
    display: `no background command ${id}`,
    isError: true,
  };
}
