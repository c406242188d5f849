import { z } from 'zod';
import { stateText } from '../background/background-command.js';
import { STOPPED_BY_MODEL } from '../background/background-commands.js';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { hasBackgroundCommands, unknownCommand } from './read-background-output.js';

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    id: z.string().min(1).describe('The id run_command gave the background command (`bg1`).'),
  }),
);

/** stop_background_command: ends a background command and every process it started. */
export const stopBackgroundCommandTool = defineTool({
  name: 'stop_background_command',
  description:
    'Ends a background command with every process it started (SIGTERM, then SIGKILL), and returns the output you had not read yet.',
  whenToUse: 'A server or watcher started with background: true that is no longer needed.',
  whenNotToUse: 'Commands run in the foreground (they end by themselves or at their timeout).',
  parameters: builtSchema('stop_background_command', parameters),
  readOnly: false,
  offeredWhen: hasBackgroundCommands,
  async execute(args, ctx) {
    const { background } = ctx;
    const command = background?.get(args.id);
    if (background === undefined || command === undefined)
      return unknownCommand(args.id, background?.list().map((info) => info.id) ?? []);
    const wasRunning = command.running;
    await background.stop(command, STOPPED_BY_MODEL);
    const { output, info } = command.read();
    const what = wasRunning ? `stopped (${stateText(info)})` : `had already ended: ${stateText(info)}`;
    return {
      output: `${info.id} (\`${info.command}\`) ${what}.\n--- output not read before ---\n${output || '(none)'}`,
      display: `${info.id} ${wasRunning ? 'stopped' : stateText(info)}`,
      isError: false,
    };
  },
});
