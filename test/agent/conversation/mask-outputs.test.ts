import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV3CallOptions, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { KEEP_RECENT_TOOL_STEPS, maskOldToolOutputs } from '../../../src/agent/conversation/mask-outputs.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import { parseModelScript } from '../../../src/model/script-schema.js';
import { runWithHarness } from '../../helpers/run-harness.js';

const FILES = 6;
const LINE = 'export const value = 42; // a line long enough to make the file worth masking\n';

/** The script model, keeping the tool-result outputs each call was sent. */
class OutputRecordingModel extends ScriptModel {
  readonly sent: string[][] = [];

  override async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const outputs: string[] = [];
    for (const message of options.prompt) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) {
        if (part.type === 'tool-result' && part.output.type === 'text') outputs.push(part.output.value);
      }
    }
    this.sent.push(outputs);
    return super.doStream(options);
  }
}

function readFileStep(index: number): ModelMessage[] {
  const id = `call-${index}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: `f${index}.ts` } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'read_file',
          output: { type: 'text', value: `1\t// file ${index}\n${LINE.repeat(10)}` },
        },
      ],
    },
  ];
}

function outputOf(message: ModelMessage | undefined): string {
  if (message?.role !== 'tool') throw new Error('not a tool message');
  const part = message.content[0];
  if (part?.type !== 'tool-result' || part.output.type !== 'text') throw new Error('not a text result');
  return part.output.value;
}

describe('masking old tool outputs', () => {
  it('keeps the last N outputs whole and turns older ones into stubs that say how to read them again', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'Read the files' }];
    for (let index = 1; index <= FILES; index++) messages.push(...readFileStep(index));
    const sent = maskOldToolOutputs(messages, { isReadOnly: (name) => name === 'read_file' });

    expect(sent).toHaveLength(messages.length);
    const toolIndexes = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
    const recent = toolIndexes.slice(-KEEP_RECENT_TOOL_STEPS);
    for (const index of toolIndexes) {
      if (recent.includes(index)) {
        expect(outputOf(sent[index])).toBe(outputOf(messages[index]));
      } else {
        const stub = outputOf(sent[index]);
        expect(stub.length).toBeLessThan(outputOf(messages[index]).length / 2);
        expect(stub).toContain('call read_file again with the same arguments');
        expect(stub).toContain(`// file ${toolIndexes.indexOf(index) + 1}`);
      }
    }
    // The calls stay, with their arguments: the stub's "same arguments" are right above it.
    for (let index = 0; index < messages.length; index++) {
      if (messages[index]?.role === 'assistant') expect(sent[index]).toBe(messages[index]);
    }
    // The conversation itself is left whole.
    expect(outputOf(messages[toolIndexes[0]!])).toContain(LINE);
  });

  it('tells a call that changes things from one that only reads', () => {
    const messages = readFileStep(1).map((message) =>
      message.role === 'tool'
        ? {
            ...message,
            content: message.content.map((part) =>
              part.type === 'tool-result' ? { ...part, toolName: 'run_command' } : part,
            ),
          }
        : message,
    );
    const sent = maskOldToolOutputs(messages, { isReadOnly: () => false, keepRecent: 0 });
    expect(outputOf(sent[1])).toContain('repeat the call (it is not read-only');
  });

  it('in a run, sends the early file reads as stubs once newer steps came, and the model can read them again', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'taskweave-mask-'));
    for (let index = 1; index <= FILES; index++) {
      await writeFile(path.join(root, `f${index}.ts`), `// file ${index}\n${LINE.repeat(10)}`);
    }
    const reads = Array.from({ length: FILES }, (_, index) => ({
      toolCalls: [{ name: 'read_file', args: { path: `f${index + 1}.ts` } }],
    }));
    const model = new OutputRecordingModel(
      parseModelScript(
        {
          turns: [
            ...reads,
            // Reading the first file again gives its output whole.
            { toolCalls: [{ name: 'read_file', args: { path: 'f1.ts' } }] },
            { text: 'All read.' },
          ],
        },
        'mask',
      ),
      'mask',
    );
    const { result } = await runWithHarness({
      model: { id: 'script:mask', model },
      goal: 'Read the files',
      plan: 'never',
      workspaceRoot: root,
    });
    expect(result.status).toBe('completed');
    const last = model.sent.at(-1) ?? [];
    expect(last).toHaveLength(FILES + 1);
    const masked = last.filter((output) => output.startsWith('[Output masked'));
    expect(masked).toHaveLength(FILES + 1 - KEEP_RECENT_TOOL_STEPS);
    expect(masked[0]).toContain('// file 1');
    expect(last.at(-1)).toContain('// file 1');
    expect(last.at(-1)).toContain(LINE.trim());
  });
});
