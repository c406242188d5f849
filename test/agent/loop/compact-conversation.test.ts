import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactionRecordOf } from '../../../src/agent/conversation/compaction-record.js';
import { CHARS_PER_TOKEN } from '../../../src/agent/conversation/context-size.js';
import { loadConversation } from '../../../src/agent/conversation/stored-conversation.js';
import { KEEP_RECENT_STEPS } from '../../../src/agent/loop/compact-conversation.js';
import type { AgentUpdateOf, ServerEvent } from '../../../src/events/registry.js';
import type { ResolvedModel } from '../../../src/model/types.js';
import { type MockTurn, streamPartsFor } from '../../helpers/mock-model.js';
import { autoApprove, runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';

const GOAL = 'Document every module in NOTES.md, then add a changelog entry. Keep the public API unchanged.';
const SUMMARY =
  'Done: read modules 1-4.\nFindings: every module exports one constant.\nLeft to do: modules 5-8.\nOpen questions: whether the changelog needs a date.';
const FILES = 8;
const WINDOW = 10_000;
const COMPACT_AT = 0.5;

/** A mock model whose act calls take the next turn and whose compact calls get the summary. */
function compactingModel(turns: MockTurn[]) {
  const act: LanguageModelV3CallOptions[] = [];
  const compact: LanguageModelV3CallOptions[] = [];
  let next = 0;
  const mock = new MockLanguageModelV3({
    doStream: async (options) => {
      const phase = (options.providerOptions?.taskweave as { phase?: string } | undefined)?.phase;
      let turn: MockTurn;
      if (phase === 'compact') {
        compact.push(options);
        turn = { text: SUMMARY };
      } else {
        act.push(options);
        turn = turns[next++] ?? { text: 'All done.' };
      }
      return { stream: convertArrayToReadableStream(streamPartsFor(turn)) };
    },
  });
  const model: ResolvedModel = {
    id: 'mock:small',
    model: mock,
    context: { window: WINDOW, compactAt: COMPACT_AT },
  };
  return { model, act, compact };
}

const TURNS: MockTurn[] = [
  { toolCalls: [{ name: 'write_file', args: { path: 'NOTES.md', content: '# Notes\n' } }] },
  {
    toolCalls: [
      { name: 'todo_add', args: { description: 'Add a changelog entry for the documented modules' } },
    ],
  },
  { toolCalls: [{ name: 'request_input', args: { question: 'Should NOTES.md be in English or German?' } }] },
  ...Array.from({ length: FILES }, (_, index) => ({
    text: `Reading module ${index + 1}.`,
    toolCalls: [{ name: 'read_file', args: { path: `src/module-${index + 1}.ts` } }],
  })),
  { text: 'All modules are documented.' },
];

async function workspaceWithModules(): Promise<string> {
  const root = await tempWorkspaceRoot();
  await mkdir(path.join(root, 'src'));
  for (let index = 1; index <= FILES; index++) {
    const line = `export const value${index} = 'a line that makes the module about four kilobytes long';\n`;
    await writeFile(path.join(root, 'src', `module-${index}.ts`), line.repeat(50));
  }
  return root;
}

function textOf(prompt: LanguageModelV3Prompt): string {
  return prompt
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.map((part) =>
            part.type === 'text'
              ? part.text
              : part.type === 'tool-call'
                ? part.toolCallId
                : JSON.stringify(part),
          ),
    )
    .join('\n');
}

function compactions(events: ServerEvent[]): AgentUpdateOf<'context_compacted'>[] {
  return events.flatMap((event) =>
    event.type === 'agent_update' && event.update_type === 'context_compacted' ? [event] : [],
  );
}

async function compactedRun() {
  const { model, act, compact } = compactingModel(TURNS);
  const run = await runWithHarness({
    model,
    goal: GOAL,
    plan: 'never',
    workspaceRoot: await workspaceWithModules(),
    inputProvider: async () => 'English, please.',
  });
  return { ...run, act, compact };
}

describe('compaction', () => {
  it('replaces the older messages by a summary that keeps the goal, the task list, the questions and the files changed', async () => {
    const { result, act, compact, events } = await compactedRun();
    expect(result.status).toBe('completed');
    expect(compact.length).toBeGreaterThanOrEqual(1);
    // The compact call is a plain call over the older messages, ending with the request to summarise.
    const request = compact[0]!;
    expect(request.toolChoice).toEqual({ type: 'none' });
    expect(textOf(request.prompt)).toContain('=== COMPACT THE CONVERSATION ===');

    // The first act call after the compaction: what the model now works from.
    const compactedAt = compactions(events)[0]!.step;
    const after = act[compactedAt - 1]!;
    const [system, first, ...rest] = after.prompt;
    expect(system?.role).toBe('system');
    expect(first?.role).toBe('user');
    const summary = textOf([first!]);
    expect(summary).toContain(GOAL);
    expect(summary).toContain('Add a changelog entry for the documented modules');
    expect(summary).toContain('Should NOTES.md be in English or German?');
    expect(summary).toContain('The user answered: English, please.');
    expect(summary).toContain('- NOTES.md');
    expect(summary).toContain('Open questions: whether the changelog needs a date.');
    // The goal message itself and the early steps are gone; the recent steps are whole.
    expect(after.prompt.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(textOf(after.prompt)).not.toContain('Reading module 1.');
    const kept = rest.filter((message) => message.role === 'assistant').length;
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThanOrEqual(KEEP_RECENT_STEPS);
    expect(rest[0]?.role).toBe('assistant');
    // A compaction gets the context well under the threshold: the next one is not at the next step.
    const steps = compactions(events).map((event) => event.step);
    for (let index = 1; index < steps.length; index++)
      expect(steps[index]! - steps[index - 1]!).toBeGreaterThan(1);
    // A later compaction summarises the earlier summary, and still carries the exact parts.
    expect(steps.length).toBeGreaterThan(1);
    const last = textOf([act.at(-1)!.prompt[1]!]);
    for (const kept of [
      GOAL,
      'Should NOTES.md be in English or German?',
      '- NOTES.md',
      'Add a changelog entry',
    ])
      expect(last).toContain(kept);
  });

  it('reports when it happened and the tokens it saved', async () => {
    const { events, act } = await compactedRun();
    const [event] = compactions(events);
    expect(event).toBeDefined();
    const { tokens_before: before, tokens_after: after, tokens_saved: saved } = event!;
    expect(before).toBeGreaterThan(WINDOW * COMPACT_AT);
    expect(after).toBeLessThan(WINDOW * COMPACT_AT);
    expect(saved).toBe(before - after);
    // Before: the goal and one reply and its results per step so far; after: the summary and the recent steps.
    expect(event!.messages_before).toBe(1 + 2 * (event!.step - 1));
    const sent = act[event!.step - 1]!;
    expect(event!.messages_after).toBe(sent.prompt.length - 1);
    // The figures are those of what is sent: the next call's prompt and tools, measured here.
    const sentChars =
      JSON.stringify(sent.prompt.map((message) => message.content)).length +
      JSON.stringify(sent.tools).length;
    expect(after).toBeGreaterThan((sentChars / CHARS_PER_TOKEN) * 0.8);
    expect(after).toBeLessThan((sentChars / CHARS_PER_TOKEN) * 1.2);
  });

  it('is stored: a continued session starts from the compacted form', async () => {
    const { store, sessionId, workspace } = await compactedRun();
    const history = await loadConversation(store.sessions, sessionId, null, store.images);
    const record = compactionRecordOf(history[0]);
    expect(record?.goals).toEqual([GOAL]);
    expect(record?.filesChanged).toEqual(['NOTES.md']);

    const { model, act } = compactingModel([{ text: 'The notes are complete.' }]);
    const resumed = await runWithHarness({
      model,
      goal: 'Is anything left?',
      plan: 'never',
      store,
      sessionId,
      workspaceRoot: workspace.root,
      history,
    });
    expect(resumed.result.status).toBe('completed');
    const [, first] = act[0]!.prompt;
    expect(textOf([first!])).toContain('=== EARLIER CONVERSATION, COMPACTED ===');
    expect(textOf(act[0]!.prompt)).not.toContain('Reading module 1.');
  });

  it("keeps a plan task's prompt first and current, and compacts the task's own steps after it", async () => {
    const task = {
      id: 'docs',
      title: 'Document the modules',
      description: 'Read each module.',
      depends_on: [],
    };
    const { model, act, compact } = compactingModel([
      { toolCalls: [{ name: 'plan_actions', args: { tasks: [task] } }] },
      ...TURNS.slice(3, -1),
      { toolCalls: [{ name: 'task_completed', args: { summary: 'All modules read.' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Documented.' } }] },
    ]);
    const { result, events } = await runWithHarness({
      model,
      goal: GOAL,
      plan: 'always',
      planApprover: autoApprove,
      workspaceRoot: await workspaceWithModules(),
    });
    expect(result.status).toBe('completed');
    const [event] = compactions(events);
    expect(event?.task_id).toBe('docs');
    expect((compact[0]?.providerOptions?.taskweave as { taskId?: string } | undefined)?.taskId).toBe('docs');
    const after = act.find(
      (call, index) => index > 0 && textOf(call.prompt).includes('=== EARLIER CONVERSATION, COMPACTED ==='),
    )!;
    const [, taskPrompt, summary, next] = after.prompt;
    expect(textOf([taskPrompt!])).toMatch(/^=== USER REQUEST ===/);
    expect(textOf([taskPrompt!])).toContain('Document the modules');
    expect(textOf([summary!])).toContain(GOAL);
    expect(textOf([summary!])).toContain('first message');
    expect(next?.role).toBe('assistant');
  });
});
