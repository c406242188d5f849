import type { LanguageModelV3CallOptions, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptModel } from '../../../src/model/script-model.js';
import { parseModelScript } from '../../../src/model/script-schema.js';
import { BackgroundCommands } from '../../../src/tools/background/background-commands.js';
import { runWithHarness } from '../../helpers/run-harness.js';

const BACKGROUND_TOOLS = ['read_background_output', 'stop_background_command'];

/** The script model, keeping for each call the tools it offered and its system prompt. */
class OfferRecordingModel extends ScriptModel {
  readonly calls: { tools: string[]; system: string }[] = [];

  override async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    this.calls.push({
      tools: (options.tools ?? []).map((tool) => tool.name),
      system: options.prompt
        .flatMap((message) => (message.role === 'system' ? [message.content] : []))
        .join(''),
    });
    return super.doStream(options);
  }
}

function recordingModel(turns: unknown[], name: string): OfferRecordingModel {
  return new OfferRecordingModel(parseModelScript({ turns }, name), name);
}

/** Starts a command that runs until it is stopped, stops it, then reads it after its end. */
const BACKGROUND_TURNS = [
  { toolCalls: [{ name: 'run_command', args: { command: 'sleep 300', background: true } }] },
  { toolCalls: [{ name: 'stop_background_command', args: { id: 'bg1' } }] },
  { toolCalls: [{ name: 'read_background_output', args: { id: 'bg1' } }] },
  { text: 'The server was started and stopped.' },
];

describe('tools offered per state', () => {
  let background: BackgroundCommands | undefined;
  afterEach(async () => {
    await background?.close();
    background = undefined;
  });

  it('offers the background tools from the step after a background command started, and after it ended', async () => {
    background = new BackgroundCommands({ max: 4, emit: () => {} });
    const model = recordingModel(BACKGROUND_TURNS, 'tools-per-state');
    const { result, events } = await runWithHarness({
      model: { id: 'script:tools-per-state', model },
      goal: 'Start a server, then stop it',
      background,
    });
    expect(result.status).toBe('completed');
    expect(model.calls).toHaveLength(4);

    const [first, ...later] = model.calls;
    expect(first?.tools).toEqual(expect.arrayContaining(['run_command', 'read_file']));
    expect(first?.tools.filter((name) => BACKGROUND_TOOLS.includes(name))).toEqual([]);
    // The command ended at the second call; its tools stay, so a read after the end still works.
    for (const call of later) expect(call.tools).toEqual(expect.arrayContaining(BACKGROUND_TOOLS));

    const results = events.flatMap((event) =>
      event.type === 'tool_complete' || event.type === 'tool_error' ? [[event.type, event.name]] : [],
    );
    expect(results).toEqual([
      ['tool_complete', 'run_command'],
      ['tool_complete', 'stop_background_command'],
      ['tool_complete', 'read_background_output'],
    ]);
    const read = events.find(
      (event) => event.type === 'tool_complete' && event.name === 'read_background_output',
    );
    expect(read).toMatchObject({ result: expect.stringMatching(/^bg1 \(`sleep 300`\): stopped/) });
    expect(background.get('bg1')?.info().state).toBe('stopped');
  });

  it('never offers them to a run that cannot start a background command, yet answers a call', async () => {
    const model = recordingModel(
      [
        { toolCalls: [{ name: 'read_background_output', args: { id: 'bg1' } }] },
        { text: 'There is nothing running.' },
      ],
      'no-background',
    );
    const { result, events } = await runWithHarness({ model: { id: 'script:no-background', model } });
    expect(result.status).toBe('completed');
    for (const call of model.calls) {
      expect(call.tools.filter((name) => BACKGROUND_TOOLS.includes(name))).toEqual([]);
    }
    const answer = events.find((event) => event.type === 'tool_error');
    expect(answer).toMatchObject({
      name: 'read_background_output',
      error: expect.stringContaining('There is no background command bg1 in this session. None was started.'),
    });
  });

  it('describes the background tools in the JSON protocol only once a background command started', async () => {
    background = new BackgroundCommands({ max: 4, emit: () => {} });
    const json = (toolCalls: unknown[]) => ({
      text: JSON.stringify({ reasoning: 'next', tool_calls: toolCalls }),
    });
    const model = recordingModel(
      [
        json([{ name: 'run_command', args: { command: 'sleep 300', background: true } }]),
        json([{ name: 'stop_background_command', args: { id: 'bg1' } }]),
        { text: JSON.stringify({ final_answer: 'Started and stopped.' }) },
      ],
      'json-background',
    );
    const { result } = await runWithHarness({
      model: { id: 'script:json-background', model },
      protocol: 'json',
      background,
    });
    expect(result.status).toBe('completed');
    const [first, second] = model.calls;
    expect(first?.tools).toEqual([]);
    expect(first?.system).toContain('## run_command\n');
    for (const name of BACKGROUND_TOOLS) {
      expect(first?.system).not.toContain(`## ${name}\n`);
      expect(second?.system).toContain(`## ${name}\n`);
    }
  });
});
