import { z } from 'zod';
import { fillSection } from '../../prompts/template.js';
import { describeIssues } from '../../util/describe-issues.js';
import { errorMessage } from '../../util/error-message.js';

/**
 * The JSON wire protocol, for models without native tool calling (`--protocol json`): every reply
 * is one JSON object carrying the four AgentResponse fields, and tool results go back as a plain
 * user message. Same semantics and events as native tool calling; only the wire differs.
 */

/** The control fields a step may offer besides `tool_calls` (which ones depends on the mode). */
export type ControlField = 'task_completed' | 'final_answer';

/** Tool arguments longer than this are shortened when results are reported back. */
export const MAX_ARGS_PREVIEW_CHARS = 300;

/** Characters of context shown before and after the place a JSON parse error points at. */
const SNIPPET_BEFORE_CHARS = 30;
const SNIPPET_AFTER_CHARS = 15;

const CONTROL_FIELDS: ControlField[] = ['task_completed', 'final_answer'];

type ResponseField = 'reasoning' | 'tool_calls' | ControlField;

/** The template of the protocol's model-facing texts (src/prompts/json-protocol.md). */
const TEXTS = 'json-protocol';

/**
 * What the model reads about each field: in the schema and in the instructions, one text. Read
 * when the module loads, since the reply's schema (a module constant) carries them.
 */
const FIELD_DESCRIPTIONS = {
  reasoning: fillSection(TEXTS, 'field-reasoning'),
  tool_calls: fillSection(TEXTS, 'field-tool-calls'),
  task_completed: fillSection(TEXTS, 'field-task-completed'),
  final_answer: fillSection(TEXTS, 'field-final-answer'),
} satisfies Record<ResponseField, string>;

// Models often write `null` or "" for a field they mean to leave out; both count as absent.
function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

function optionalText(description: string) {
  return z.preprocess(blankToUndefined, z.string().optional()).describe(description);
}

const toolCallSchema = z.strictObject({
  name: z.string().min(1).describe('The name of one of the tools listed.'),
  args: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("The tool's arguments, matching its parameters."),
});

/**
 * What the model says in one step (design.md "AgentResponse"). Unknown keys are refused rather than
 * dropped: a model that writes `answer` instead of `final_answer` learns it, instead of losing it.
 */
export const agentResponseSchema = z.strictObject({
  reasoning: optionalText(FIELD_DESCRIPTIONS.reasoning),
  tool_calls: z
    .preprocess(blankToUndefined, z.array(toolCallSchema).default([]))
    .describe(FIELD_DESCRIPTIONS.tool_calls),
  task_completed: optionalText(FIELD_DESCRIPTIONS.task_completed),
  final_answer: optionalText(FIELD_DESCRIPTIONS.final_answer),
});

/** One step of the model, whichever wire protocol produced it. */
export type AgentResponse = z.output<typeof agentResponseSchema>;

/** A tool as the instructions describe it. */
export interface ProtocolTool {
  name: string;
  description: string;
  parameters: z.ZodType;
  /** The parameters as JSON Schema when the tool came with one (MCP tools): shown as is. */
  jsonSchema?: Record<string, unknown>;
}

export interface JsonProtocolInstructionsOptions {
  tools: ProtocolTool[];
  /** The control fields this step offers: both in complex mode, `final_answer` in simple mode. */
  controlFields: ControlField[];
}

/** The one-line form of a reply, with `?` marking the fields that may be left out. */
function replyShape(controlFields: ControlField[]): string {
  const fields = [
    '"reasoning"?: string',
    '"tool_calls": [{"name": string, "args": {...}}]',
    ...CONTROL_FIELDS.filter((field) => controlFields.includes(field)).map((field) => `"${field}"?: string`),
  ];
  return `{${fields.join(', ')}}`;
}

const FULL_REPLY_SHAPE = replyShape(CONTROL_FIELDS);

/**
 * The text appended to the system prompt in the JSON protocol: the reply format, what each field is
 * for, every tool with its parameters as JSON Schema, examples, and the one-object rule.
 */
export function buildJsonProtocolInstructions(options: JsonProtocolInstructionsOptions): string {
  const controlFields = CONTROL_FIELDS.filter((field) => options.controlFields.includes(field));
  const fields: ResponseField[] = ['reasoning', 'tool_calls', ...controlFields];
  const rules = [fillSection(TEXTS, 'rule-one-object'), fillSection(TEXTS, 'rule-quotes')];
  if (controlFields.length > 0) {
    rules.push(
      fillSection(TEXTS, 'rule-no-tool', { fields: controlFields.map((field) => `"${field}"`).join(' or ') }),
    );
  }
  return fillSection(TEXTS, 'instructions', {
    shape: replyShape(controlFields),
    fields: fields.map((field) => `- "${field}": ${FIELD_DESCRIPTIONS[field]}`).join('\n'),
    rules: rules.map((rule) => `- ${rule}`).join('\n'),
    examples: exampleReplies(options.tools, controlFields).join('\n'),
    tools:
      options.tools.length > 0
        ? options.tools.map(describeTool).join('\n\n')
        : fillSection(TEXTS, 'no-tools'),
  });
}

function describeTool(tool: ProtocolTool): string {
  return fillSection(TEXTS, 'tool', {
    name: tool.name,
    description: tool.description,
    schema: JSON.stringify(parametersSchema(tool), compactSchema),
  });
}

function parametersSchema(tool: ProtocolTool): z.core.JSONSchema.JSONSchema {
  if (tool.jsonSchema) return tool.jsonSchema as z.core.JSONSchema.JSONSchema;
  // The model writes the input side: fields with defaults are optional to it.
  return z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' });
}

/** Drops what only adds length: the `$schema` URL and the safe-integer bounds zod puts on `.int()`. */
function compactSchema(key: string, value: unknown): unknown {
  if (key === '$schema') return undefined;
  if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) return undefined;
  if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) return undefined;
  return value;
}

function exampleReplies(tools: ProtocolTool[], controlFields: ControlField[]): string[] {
  const examples: unknown[] = [];
  const firstTool = tools[0];
  if (firstTool) {
    examples.push({
      reasoning: fillSection(TEXTS, 'example-look'),
      tool_calls: [{ name: firstTool.name, args: exampleArgs(parametersSchema(firstTool)) }],
    });
  }
  if (controlFields.includes('task_completed')) {
    examples.push({
      reasoning: fillSection(TEXTS, 'example-completed-reasoning'),
      tool_calls: [],
      task_completed: fillSection(TEXTS, 'example-completed'),
    });
  }
  if (controlFields.includes('final_answer')) {
    examples.push({ tool_calls: [], final_answer: fillSection(TEXTS, 'example-final-answer') });
  }
  if (examples.length === 0)
    examples.push({ reasoning: fillSection(TEXTS, 'example-nothing'), tool_calls: [] });
  return examples.map((example) => JSON.stringify(example));
}

/** Placeholder values for the required parameters, so the example has the tool's real shape. */
function exampleArgs(schema: z.core.JSONSchema.JSONSchema): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const property = schema.properties?.[name];
    const type = typeof property === 'object' ? property.type : undefined;
    if (type === 'number' || type === 'integer') args[name] = 1;
    else if (type === 'boolean') args[name] = true;
    else if (type === 'array') args[name] = [];
    else if (type === 'object') args[name] = {};
    else args[name] = '...';
  }
  return args;
}

/** The outcome of reading one reply; `error` is written for the model to read. */
export type ParseAgentResponseResult =
  | { ok: true; response: AgentResponse; repaired: boolean }
  | { ok: false; error: string };

/**
 * Reads one reply of the JSON protocol. A strict parse first; if that fails, one repair attempt
 * (code fence, prose around the object, trailing commas, smart quotes) and a second parse. A value
 * that does not fit the schema is an error too; the error says what was wrong and the expected shape.
 */
export function parseAgentResponse(text: string): ParseAgentResponseResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: fillSection(TEXTS, 'empty', { expected: expectedShape() }) };
  const strict = parseJson(trimmed);
  if (strict.ok) return validate(strict.value, false);

  const candidate = repairJsonText(trimmed);
  if (candidate === undefined) {
    return {
      ok: false,
      error: fillSection(TEXTS, 'no-object', { error: strict.error, expected: expectedShape() }),
    };
  }
  const repaired = parseJson(candidate);
  if (!repaired.ok)
    return {
      ok: false,
      error: fillSection(TEXTS, 'invalid-json', { error: repaired.error, expected: expectedShape() }),
    };
  return validate(repaired.value, true);
}

function expectedShape(): string {
  return fillSection(TEXTS, 'expected-shape', { shape: FULL_REPLY_SHAPE });
}

function validate(value: unknown, repaired: boolean): ParseAgentResponseResult {
  const parsed = agentResponseSchema.safeParse(value);
  if (parsed.success) return { ok: true, response: parsed.data, repaired };
  return {
    ok: false,
    error: fillSection(TEXTS, 'wrong-fields', {
      issues: describeIssues(parsed.error),
      expected: expectedShape(),
    }),
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: locateSyntaxError(errorMessage(error), text) };
  }
}

/** Turns V8's "at position N" into a line, a column and the text around it, which a model can find. */
function locateSyntaxError(message: string, text: string): string {
  if (/unexpected end of json input/i.test(message)) {
    return `${message}: the text ends before the JSON object is complete`;
  }
  const match = /\s*in JSON at position (\d+).*$/.exec(message);
  if (!match) return message;
  const position = Number(match[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  const where = `at position ${position} (line ${line}, column ${column}`;
  if (position >= text.length) {
    return `${message.slice(0, match.index)} ${where}: the text ends before the JSON object is complete)`;
  }
  const snippet = text.slice(Math.max(0, position - SNIPPET_BEFORE_CHARS), position + SNIPPET_AFTER_CHARS);
  return `${message.slice(0, match.index)} ${where}, near ${JSON.stringify(snippet)})`;
}

/**
 * The one repair attempt: the content of a code fence, the text from the first `{` to the last `}`,
 * and JSON syntax fixed outside strings. Undefined when there is no object to take.
 */
function repairJsonText(text: string): string | undefined {
  const fenced = /```[A-Za-z]*[^\S\n]*\n([\s\S]*)```/.exec(text);
  const body = fenced?.[1] ?? text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start === -1) return undefined;
  // Without a closing brace the reply was cut off: parsing what is there says where it stops.
  return fixSyntaxOutsideStrings(end < start ? body.slice(start) : body.slice(start, end + 1));
}

const TRAILING_COMMA_END = /\s*[}\]]/y;

const SMART_QUOTE_CLOSERS: Record<string, string> = { '“': '”“', '”': '”“', '‘': '’‘', '’': '’‘' };

/**
 * Replaces smart quotes used as string delimiters with `"` and removes trailing commas before `}`
 * or `]`. It walks the text so that string contents (file content, code) are left untouched.
 */
function fixSyntaxOutsideStrings(text: string): string {
  let result = '';
  // The characters that close the string being read, or undefined outside strings.
  let closers: string | undefined;
  let smart = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (closers !== undefined) {
      if (char === '\\') {
        result += char + text.charAt(index + 1);
        index++;
      } else if (closers.includes(char)) {
        result += '"';
        closers = undefined;
      } else result += smart && char === '"' ? '\\"' : char;
      continue;
    }
    if (char === '"' || char in SMART_QUOTE_CLOSERS) {
      smart = char !== '"';
      closers = smart ? SMART_QUOTE_CLOSERS[char] : '"';
      result += '"';
    } else if (char !== ',' || !isTrailingComma(text, index)) result += char;
  }
  return result;
}

function isTrailingComma(text: string, commaIndex: number): boolean {
  TRAILING_COMMA_END.lastIndex = commaIndex + 1;
  return TRAILING_COMMA_END.test(text);
}

/** One executed tool call, as the JSON protocol reports it back. */
export interface ProtocolToolResult {
  name: string;
  args: unknown;
  output: string;
  isError: boolean;
}

/**
 * The user message that carries tool results back in the JSON protocol: each result numbered, with
 * the tool's name, its arguments (compact, shortened when long), OK or ERROR, and its output.
 */
export function formatToolResultsForModel(results: ProtocolToolResult[]): string {
  if (results.length === 0) return fillSection(TEXTS, 'no-results');
  const blocks = results.map((result, index) => {
    const status = result.isError ? 'ERROR' : 'OK';
    const output = result.output === '' ? '(no output)' : result.output;
    return `${index + 1}. ${result.name} ${argsPreview(result.args)} → ${status}\n${output}`;
  });
  return fillSection(TEXTS, 'results', { results: blocks.join('\n\n') });
}

function argsPreview(args: unknown): string {
  const json = JSON.stringify(args ?? {}) ?? String(args);
  if (json.length <= MAX_ARGS_PREVIEW_CHARS) return json;
  return `${json.slice(0, MAX_ARGS_PREVIEW_CHARS)}… [${json.length - MAX_ARGS_PREVIEW_CHARS} more characters]`;
}

/** The user message sent back when a reply could not be read, carrying `parseAgentResponse`'s error. */
export function parseErrorMessageForModel(error: string): string {
  return fillSection(TEXTS, 'parse-error', { error });
}
