import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPETITION_FAIL_LIMIT } from '../../../src/agent/loop/recovery.js';
import { MAX_TOOL_CALLS_PER_REPLY } from '../../../src/agent/loop/reply-limits.js';
import { MAX_TODO_ADDITIONS_PER_RUN } from '../../../src/agent/todo/todo-tools.js';
import { DEFAULT_QUEUE } from '../../../src/store/sqlite/schema.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { mockModel, promptText } from '../../helpers/mock-model.js';
import { runWithHarness } from '../../helpers/run-harness.js';

/** A tool that counts its runs (it changes something, as run_command does). */
function countingTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'bump',
    description: 'counts',
    whenToUse: 'tests',
    whenNotToUse: 'never',
    readOnly: false,
    parameters: z.object({ key: z.string() }),
    async execute({ key }) {
      runs.push(key);
      return { output: `bumped ${key}`, isError: false };
    },
  });
  return { tool, runs };
}

describe('the tool calls of one reply are bounded', () => {
  it('100 identical calls in one reply run REPETITION_FAIL_LIMIT - 1 times and fail the run', async () => {
    const { tool, runs } = countingTool();
    const calls = Array.from({ length: 100 }, () => ({ name: 'bump', args: { key: 'same' } }));
    const model = mockModel([{ toolCalls: calls }]);
    const { result } = await runWithHarness({ model, tools: [tool] });
    expect(runs).toHaveLength(REPETITION_FAIL_LIMIT - 1);
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/repeated the same call/);
  });

  it('10,000 calls in one reply: only the first MAX_TOOL_CALLS_PER_REPLY run, and the model is told', async () => {
    const { tool, runs } = countingTool();
    const calls = Array.from({ length: 10_000 }, (_, index) => ({
      name: 'bump',
      args: { key: `k${index}` },
    }));
    const model = mockModel([
      { toolCalls: calls },
      (options) => {
        expect(promptText(options)).toMatch(
          new RegExp(`made 10000 tool calls; at most ${MAX_TOOL_CALLS_PER_REPLY} run per reply`),
        );
        return { text: 'Stopped there.' };
      },
    ]);
    const started = performance.now();
    const { result, events } = await runWithHarness({ model, tools: [tool] });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(runs).toHaveLength(MAX_TOOL_CALLS_PER_REPLY);
    expect(events.filter((event) => event.type === 'tool_start')).toHaveLength(MAX_TOOL_CALLS_PER_REPLY);
    expect(result.status).toBe('completed');
  });

  it('a run adds at most MAX_TODO_ADDITIONS_PER_RUN tasks to the to-do list', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const adds = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => ({
        name: 'todo_add',
        args: { description: `follow-up ${from + index}` },
      }));
    const model = mockModel([
      { toolCalls: adds(0, MAX_TOOL_CALLS_PER_REPLY) },
      { toolCalls: adds(100, 5) },
      (options) => {
        expect(promptText(options)).toMatch(
          /already added \d+ tasks to the to-do list, the most one run may add/,
        );
        return { text: 'Queued what I could.' };
      },
    ]);
    const { result } = await runWithHarness({ model, tools: [], store });
    expect(result.status).toBe('completed');
    const queued = await store.tasks.listActive(DEFAULT_QUEUE);
    expect(queued).toHaveLength(MAX_TODO_ADDITIONS_PER_RUN);
  });
});
