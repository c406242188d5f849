import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentResponseSchema,
  buildJsonProtocolInstructions,
  formatToolResultsForModel,
  MAX_ARGS_PREVIEW_CHARS,
  parseAgentResponse,
  parseErrorMessageForModel,
} from '../../../src/agent/protocol/json-protocol.js';
import { coreTools } from '../../../src/tools/registry.js';

function parsedOk(text: string) {
  const result = parseAgentResponse(text);
  if (!result.ok) throw new Error(`expected the reply to parse, got: ${result.error}`);
  return result;
}

function parseError(text: string): string {
  const result = parseAgentResponse(text);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.response)}`);
  return result.error;
}

const EXPECTED_SHAPE_START = 'Expected exactly one JSON object of the form {"reasoning"?: string';

describe('parseAgentResponse on valid replies', () => {
  it('reads every field of a full reply without repairing it', () => {
    const reply = {
      reasoning: 'The test file is missing.',
      tool_calls: [{ name: 'write_file', args: { path: 'a.test.ts', content: 'x' } }],
      task_completed: 'Wrote the test file.',
      final_answer: 'All done.',
    };
    expect(parsedOk(JSON.stringify(reply, null, 2))).toEqual({ ok: true, response: reply, repaired: false });
  });

  it('defaults a missing tool_calls to [] and missing args to {}', () => {
    expect(parsedOk('{ "final_answer": "x" }').response).toEqual({ tool_calls: [], final_answer: 'x' });
    expect(parsedOk('{"tool_calls": [{"name": "list"}]}').response.tool_calls).toEqual([
      { name: 'list', args: {} },
    ]);
  });

  it('treats null and empty strings as fields left out', () => {
    const result = parsedOk(
      '{"reasoning": null, "tool_calls": null, "task_completed": "", "final_answer": "  "}',
    );
    expect(result.response).toEqual({ tool_calls: [] });
    expect(result.response.final_answer).toBeUndefined();
  });

  it('keeps smart quotes inside the strings of valid JSON as they are', () => {
    const result = parsedOk('{"tool_calls": [], "final_answer": "He said “yes”, it’s fine"}');
    expect(result).toMatchObject({ repaired: false, response: { final_answer: 'He said “yes”, it’s fine' } });
  });
});

describe('parseAgentResponse repairs once', () => {
  it('takes the object out of a ```json fence', () => {
    const result = parsedOk('```json\n{"tool_calls": [{"name": "read_file", "args": {"path": "a"}}]}\n```');
    expect(result.repaired).toBe(true);
    expect(result.response.tool_calls).toEqual([{ name: 'read_file', args: { path: 'a' } }]);
  });

  it('ignores prose before and after the object', () => {
    const result = parsedOk(
      'Sure, here is my reply:\n{"tool_calls": [], "final_answer": "42"}\nHope this helps!',
    );
    expect(result).toMatchObject({ repaired: true, response: { final_answer: '42' } });
  });

  it('removes trailing commas before } and ]', () => {
    const result = parsedOk('{"tool_calls": [{"name": "a", "args": {"x": 1,},}, ], "reasoning": "r",\n}');
    expect(result).toMatchObject({
      repaired: true,
      response: { reasoning: 'r', tool_calls: [{ name: 'a', args: { x: 1 } }] },
    });
  });

  it('replaces smart quotes used as delimiters, keeping apostrophes inside strings', () => {
    const result = parsedOk('{“tool_calls”: [], “final_answer”: “It’s done”}');
    expect(result).toMatchObject({ repaired: true, response: { final_answer: 'It’s done' } });
  });

  it('leaves string contents alone while repairing around them', () => {
    const content = 'call(a, )\nconst q = "“quoted”";\n';
    const text = `{"tool_calls": [{"name": "write_file", "args": {"path": "a.js", "content": ${JSON.stringify(content)}}},]}`;
    expect(parsedOk(text).response.tool_calls[0]?.args.content).toBe(content);
  });
});

describe('parseAgentResponse errors', () => {
  it('says the reply has no JSON object when it is only prose', () => {
    const error = parseError('I will read the file first.');
    expect(error).toContain('The reply contains no JSON object');
    expect(error).toContain(EXPECTED_SHAPE_START);
  });

  it('says an empty reply is empty', () => {
    expect(parseError('  \n ')).toContain('The reply is empty');
  });

  it('points at the line, column and text of a syntax error it cannot repair', () => {
    const error = parseError('{\n  "final_answer": "x"\n  "tool_calls": []\n}');
    expect(error).toContain("Expected ',' or '}' after property value at position 26 (line 3, column 3");
    expect(error).toContain('\\"final_answer\\": \\"x\\"\\n  \\"tool_calls\\": [');
    expect(error).toContain(EXPECTED_SHAPE_START);
  });

  it('names the unexpected token when the parser gives no position', () => {
    const error = parseError('{"tool_calls": [{"name": read_file}]}');
    expect(error).toContain('The reply is not valid JSON');
    expect(error).toContain("Unexpected token 'r'");
  });

  it('says when the object is cut off', () => {
    const error = parseError('{"tool_calls": [{"name": "a"');
    expect(error).toContain('The reply is not valid JSON');
    expect(error).toContain('(line 1, column 29: the text ends before the JSON object is complete)');
    expect(parseError('Here it is: {"tool_calls": [{"name": ')).toContain(
      'the text ends before the JSON object is complete',
    );
  });

  it('refuses two objects in one reply', () => {
    expect(parseError('{"tool_calls": []}\n{"final_answer": "x"}')).toContain(
      'Unexpected non-whitespace character after JSON',
    );
  });

  it('reports schema problems as path: message', () => {
    expect(parseError('{"tool_calls": "read_file"}')).toContain(
      'does not have the expected fields: tool_calls: Invalid input: expected array, received string',
    );
    const missingName = parseError('{"tool_calls": [{"args": {}}]}');
    expect(missingName).toContain('tool_calls[0].name: Invalid input: expected string');
    expect(missingName).toContain(EXPECTED_SHAPE_START);
    expect(parseError('{"tool_calls": [], "answer": "x"}')).toContain(
      '(top level): Unrecognized key: "answer"',
    );
    expect(parseError('[]')).toContain('(top level): Invalid input: expected object, received array');
    expect(parseError('{"final_answer": 42}')).toContain('final_answer: Invalid input: expected string');
  });
});

describe('parseErrorMessageForModel', () => {
  it('carries the error and asks for one JSON object again', () => {
    const error = parseError('{"tool_calls": 3}');
    const message = parseErrorMessageForModel(error);
    expect(message.startsWith('Your last reply was not a valid JSON object: ')).toBe(true);
    expect(message).toContain(error);
    expect(message).toContain('Reply again with exactly one JSON object');
  });
});

const lookTool = {
  name: 'look_up',
  description: 'Looks a word up in the dictionary.',
  parameters: z.object({
    word: z.string().min(1).describe('The word to look up.'),
    max_senses: z.number().int().positive().default(3),
  }),
};

function exampleLines(instructions: string): string[] {
  const examples = instructions.split('Example replies:\n\n')[1]?.split('\n\n# Tools')[0] ?? '';
  return examples.split('\n').filter((line) => line !== '');
}

describe('buildJsonProtocolInstructions', () => {
  it('describes each tool with its parameters as compact JSON Schema', () => {
    const instructions = buildJsonProtocolInstructions({
      tools: [lookTool],
      controlFields: ['final_answer'],
    });
    expect(instructions).toContain('## look_up\nLooks a word up in the dictionary.');
    const schemaLine = instructions.split('\n').find((line) => line.startsWith('Parameters (JSON Schema): '));
    const schema = JSON.parse(schemaLine?.slice('Parameters (JSON Schema): '.length) ?? 'null');
    expect(schema).toEqual({
      type: 'object',
      properties: {
        word: { type: 'string', minLength: 1, description: 'The word to look up.' },
        max_senses: { type: 'integer', exclusiveMinimum: 0, default: 3 },
      },
      required: ['word'],
    });
  });

  it('gives the reply format, each field description and the one-object rule', () => {
    const instructions = buildJsonProtocolInstructions({
      tools: [lookTool],
      controlFields: ['task_completed', 'final_answer'],
    });
    for (const field of ['reasoning', 'tool_calls', 'task_completed', 'final_answer'] as const) {
      const description = agentResponseSchema.shape[field].description;
      expect(description).toBeTruthy();
      expect(instructions).toContain(`- "${field}": ${description}`);
    }
    expect(instructions).toContain(
      '{"reasoning"?: string, "tool_calls": [{"name": string, "args": {...}}], "task_completed"?: string, "final_answer"?: string}',
    );
    expect(instructions).toContain('Reply with exactly one JSON object and nothing else');
    expect(instructions).toContain('When no tool is needed, fill "task_completed" or "final_answer".');
  });

  it('leaves task_completed out of simple mode', () => {
    const instructions = buildJsonProtocolInstructions({
      tools: [lookTool],
      controlFields: ['final_answer'],
    });
    expect(instructions).not.toContain('task_completed');
    expect(instructions).toContain('When no tool is needed, fill "final_answer".');
  });

  it('gives example replies that are themselves valid replies using a real tool', () => {
    const instructions = buildJsonProtocolInstructions({
      tools: [lookTool],
      controlFields: ['task_completed', 'final_answer'],
    });
    const examples = exampleLines(instructions);
    expect(examples).toHaveLength(3);
    const responses = examples.map((line) => parsedOk(line).response);
    expect(responses[0]?.tool_calls).toEqual([{ name: 'look_up', args: { word: '...' } }]);
    expect(responses[1]?.task_completed).toBeTruthy();
    expect(responses[2]?.final_answer).toBeTruthy();
  });

  it('lists every core tool with its description and parameter names', () => {
    const instructions = buildJsonProtocolInstructions({ tools: coreTools, controlFields: ['final_answer'] });
    for (const tool of coreTools) {
      expect(instructions).toContain(`## ${tool.name}\n${tool.description}\nParameters (JSON Schema): {`);
      // A core tool's parameters are made when first used (z.lazy): the object inside.
      const parameters = tool.parameters instanceof z.ZodLazy ? tool.parameters.unwrap() : tool.parameters;
      expect(parameters).toBeInstanceOf(z.ZodObject);
      if (!(parameters instanceof z.ZodObject)) continue;
      expect(Object.keys(parameters.shape).length).toBeGreaterThan(0);
      for (const parameter of Object.keys(parameters.shape)) {
        expect(instructions).toContain(`"${parameter}":`);
      }
    }
    expect(instructions).not.toContain('$schema');
    expect(instructions).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });
});

describe('formatToolResultsForModel', () => {
  it('numbers the results and marks each OK or ERROR with the tool, its args and its output', () => {
    const message = formatToolResultsForModel([
      { name: 'read_file', args: { path: 'a.txt' }, output: 'hello', isError: false },
      { name: 'run_command', args: { command: 'npm test' }, output: 'exit code 1', isError: true },
    ]);
    expect(message).toContain('1. read_file {"path":"a.txt"} → OK\nhello');
    expect(message).toContain('2. run_command {"command":"npm test"} → ERROR\nexit code 1');
    expect(message).toContain('Reply with your next JSON object.');
  });

  it('shortens long arguments but keeps the whole output', () => {
    const output = `wrote ${'y'.repeat(2000)}`;
    const message = formatToolResultsForModel([
      { name: 'write_file', args: { path: 'big.txt', content: 'x'.repeat(5000) }, output, isError: false },
    ]);
    const header = message.split('\n').find((line) => line.startsWith('1. write_file'));
    expect(header?.startsWith('1. write_file {"path":"big.txt","content":"xxx')).toBe(true);
    expect(header?.length).toBeLessThan(MAX_ARGS_PREVIEW_CHARS + 100);
    expect(header).toContain('more characters]');
    expect(header?.endsWith('→ OK')).toBe(true);
    expect(message).toContain(output);
  });

  it('says when a tool printed nothing', () => {
    const message = formatToolResultsForModel([{ name: 'touch', args: {}, output: '', isError: false }]);
    expect(message).toContain('1. touch {} → OK\n(no output)');
  });
});
