import type { ModelMessage, ToolResultPart } from 'ai';
import { z } from 'zod';
import type { AskedQuestion } from '../../prompts/compact-prompt.js';

/**
 * What a compaction keeps exactly instead of trusting the summary with it: the user's requests,
 * the questions asked with their answers, the files changed. It travels with the summary message
 * (in its text part's provider options, so that it is stored with the message), and the next
 * compaction starts from it.
 */
export interface CompactionRecord {
  goals: string[];
  questions: AskedQuestion[];
  filesChanged: string[];
}

const recordSchema = z.object({
  goals: z.array(z.string()),
  questions: z.array(z.object({ question: z.string(), answer: z.string() })),
  filesChanged: z.array(z.string()),
});

/** The tool that asks the user (its question is kept with its answer). */
const ASK_TOOL = 'request_input';
const NO_ANSWER = '(no answer recorded)';

/** The summary message of a compaction, carrying its record. */
export function compactionMessage(text: string, record: CompactionRecord): ModelMessage {
  const compaction = {
    goals: record.goals,
    questions: record.questions.map(({ question, answer }) => ({ question, answer })),
    filesChanged: record.filesChanged,
  };
  return {
    role: 'user',
    content: [{ type: 'text', text, providerOptions: { taskweave: { compaction } } }],
  };
}

/** The record of a compaction's summary message; undefined for any other message. */
export function compactionRecordOf(message: ModelMessage | undefined): CompactionRecord | undefined {
  if (message?.role !== 'user' || typeof message.content === 'string') return undefined;
  const part = message.content[0];
  const parsed = recordSchema.safeParse(part?.providerOptions?.taskweave?.compaction);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The record of the messages about to be compacted: the earlier compaction's (when they start with
 * one), the current goal, and the questions asked and files changed in these messages.
 */
export function collectRecord(
  older: readonly ModelMessage[],
  options: { goal?: string; changesFiles: (toolName: string) => boolean },
): CompactionRecord {
  const earlier = compactionRecordOf(older[0]);
  const goals = [...(earlier?.goals ?? [])];
  if (options.goal !== undefined && !goals.includes(options.goal)) goals.push(options.goal);
  const questions = [...(earlier?.questions ?? [])];
  const files = new Set(earlier?.filesChanged ?? []);
  const results = resultsById(older);
  for (const message of older) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const input = (part.input ?? {}) as Record<string, unknown>;
      const result = results.get(part.toolCallId);
      if (part.toolName === ASK_TOOL && typeof input.question === 'string') {
        questions.push({
          question: input.question,
          answer: result === undefined ? NO_ANSWER : outputText(result),
        });
      }
      const failed = result === undefined || result.type === 'error-text' || result.type === 'error-json';
      if (options.changesFiles(part.toolName) && typeof input.path === 'string' && !failed)
        files.add(input.path);
    }
  }
  return { goals, questions, filesChanged: [...files] };
}

function resultsById(messages: readonly ModelMessage[]): Map<string, ToolResultPart['output']> {
  const results = new Map<string, ToolResultPart['output']>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') results.set(part.toolCallId, part.output);
    }
  }
  return results;
}

function outputText(output: ToolResultPart['output']): string {
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'json' || output.type === 'error-json') return JSON.stringify(output.value);
  // An image in the output (read_file) is left out: its text names it.
  if (output.type === 'content')
    return output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return NO_ANSWER;
}
