import type { LanguageModelV3CallOptions, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ScriptModel } from '../../../src/model/script-model.js';
import { parseModelScript } from '../../../src/model/script-schema.js';
import { autoApprove, runWithHarness } from '../../helpers/run-harness.js';

/** The script model, keeping for each call its tag, its tool names and its system prompt. */
class ToolRecordingModel extends ScriptModel {
  readonly calls: { taskId?: string; tools: string[]; system: string }[] = [];

  override async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const tag = (options.providerOptions?.taskweave ?? {}) as { taskId?: string };
    this.calls.push({
      taskId: tag.taskId,
      tools: (options.tools ?? []).map((tool) => tool.name),
      system: options.prompt
        .flatMap((message) => (message.role === 'system' ? [message.content] : []))
        .join(''),
    });
    return super.doStream(options);
  }
}

const PLAN = {
  name: 'plan_actions',
  args: {
    tasks: [
      { id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] },
      { id: 'b', title: 'Write b.txt', description: 'Write b.txt', depends_on: ['a'] },
    ],
  },
};

describe('tools offered per context', () => {
  it("gives a plan task the workspace tools and the task's controls, not the to-do tools or plan_actions", async () => {
    const model = new ToolRecordingModel(
      parseModelScript(
        {
          turns: [
            { toolCalls: [PLAN] },
            { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
            { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }] },
            { toolCalls: [{ name: 'final_answer', args: { answer: 'Both done.' } }] },
          ],
        },
        'tools-per-context',
      ),
      'tools-per-context',
    );
    const { result } = await runWithHarness({
      model: { id: 'script:tools', model },
      planApprover: autoApprove,
      goal: 'Write a.txt, then b.txt',
    });
    expect(result.status).toBe('completed');

    const [first] = model.calls;
    expect(first?.tools).toEqual(
      expect.arrayContaining(['todo_add', 'todo_list', 'plan_actions', 'read_file']),
    );
    const taskCalls = model.calls.filter((call) => call.taskId !== undefined);
    expect(taskCalls).toHaveLength(2);
    for (const call of taskCalls) {
      expect(call.tools).toEqual(
        expect.arrayContaining(['read_file', 'run_command', 'task_completed', 'fail_task']),
      );
      expect(call.tools.filter((name) => name.startsWith('todo_') || name === 'plan_actions')).toEqual([]);
    }
    expect(model.calls.at(-1)?.tools).toEqual(['final_answer']);
  });

  it('does not repeat the tool descriptions in the system prompt', async () => {
    const model = new ToolRecordingModel(
      parseModelScript({ turns: [{ text: 'Nothing to do.' }] }, 'system-prompt'),
      'system-prompt',
    );
    await runWithHarness({ model: { id: 'script:system', model }, goal: 'Say hello' });
    const system = model.calls[0]?.system ?? '';
    expect(system).toContain('You are taskweave');
    for (const phrase of ['When to use', 'Adds a task to', 'Proposes a plan', 'Regex search (ripgrep)']) {
      expect(system).not.toContain(phrase);
    }
  });
});
