import { createInterface } from 'node:readline/promises';
import type { InputProvider } from '../agent/control.js';

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
