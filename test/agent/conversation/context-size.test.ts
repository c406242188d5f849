import { jsonSchema, type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, estimateContextTokens } from '../../../src/agent/conversation/context-size.js';

const readSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } as const;
const read = tool({ description: 'Reads a file of the workspace.', inputSchema: jsonSchema(readSchema) });
const done = tool({ description: 'Closes the current task.', inputSchema: jsonSchema({ type: 'object' }) });

/** What the estimate stands for: the definitions as one JSON array, the system text, the messages' content. */
function expectedTokens(system: string, definitions: object[], messages: ModelMessage[]): number {
  const chars =
    system.length +
    (definitions.length === 0 ? 0 : JSON.stringify(definitions).length) +
    messages.reduce((sum, message) => sum + JSON.stringify(message.content).length, 0);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

describe('estimateContextTokens', () => {
  it('counts the tool definitions as sent, each tool measured once and reused by other tool sets', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write src/index.ts with a main function.' }];
    const system = 'You are taskweave.';
    const taskTools = { read_file: read, task_completed: done };
    expect(estimateContextTokens({ system, tools: taskTools, messages })).toBe(
      expectedTokens(
        system,
        [
          { name: 'read_file', description: read.description, parameters: readSchema },
          { name: 'task_completed', description: done.description, parameters: { type: 'object' } },
        ],
        messages,
      ),
    );
    // Another task's set shares the definition under another name: measured with that name.
    const otherTools = { open_file: read };
    expect(estimateContextTokens({ system: '', tools: otherTools, messages: [] })).toBe(
      expectedTokens('', [{ name: 'open_file', description: read.description, parameters: readSchema }], []),
    );
    // An empty set is sent as an empty array.
    expect(estimateContextTokens({ system: '', tools: {}, messages: [] })).toBe(
      Math.ceil('[]'.length / CHARS_PER_TOKEN),
    );
  });
});
