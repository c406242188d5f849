import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src/events/registry.js';
import { ScriptModel } from '../../../src/model/script-model.js';
import type { ModelScriptInput } from '../../../src/model/script-schema.js';
import { WorktreesAhead } from '../../../src/work/worktrees-ahead.js';
import { autoApprove, runWithHarness } from '../../helpers/run-harness.js';
import { git, workspaceFolder, worktreesLeft } from '../../work/work-fixture.js';

/*
 * The conflict choice `resolve`, on a real repository: two parallel tasks change the same line,
 * the second one's merge conflicts, the user chooses resolve, and the model finishes the task in
 * its worktree with the goal branch merged in (conflict markers in the file): it is not closed
 * while a marker is left, its check runs again, and the resolved content is merged.
 */

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);
const FRESH_TASK = '(no tool calls yet for this task)';
const RESOLVED = LINES.map((line, index) => (index === 4 ? 'five from a, five from b' : line));

function repository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, 'shared.txt'), `${LINES.join('\n')}\n`);
  writeFileSync(path.join(root, '.gitignore'), '.taskweave/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  return root;
}

const sed = (text: string) => ({
  name: 'run_command',
  args: { command: `sed -i '5s/.*/${text}/' shared.txt` },
});

function script(): ModelScriptInput {
  return {
    latencyMs: 0,
    turns: [
      {
        phase: 'plan',
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                {
                  id: 'a',
                  title: 'A',
                  description: 'line 5 by a',
                  check: "grep -q 'five from a' shared.txt",
                },
                {
                  id: 'b',
                  title: 'B',
                  description: 'line 5 by b',
                  check: "grep -q 'five from b' shared.txt && ! grep -q '^<<<<<<<' shared.txt",
                },
              ],
            },
          },
        ],
      },
      { task: 'a', when: FRESH_TASK, toolCalls: [sed('five from a')] },
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
      // b's first reply waits for a's merge (gatedAfterMerge), so b's merge conflicts.
      { task: 'b', when: FRESH_TASK, toolCalls: [sed('five from b')] },
      {
        task: 'b',
        when: 'five from b',
        toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }],
      },
      // Resolving: closing with the markers still there is refused.
      {
        task: 'b',
        when: 'Resolve the merge conflict',
        toolCalls: [{ name: 'task_completed', args: { summary: 'b resolved?' } }],
      },
      {
        task: 'b',
        when: 'conflict markers (<<<<<<< or >>>>>>> lines) are still in shared.txt',
        toolCalls: [
          { name: 'run_command', args: { command: `printf '${RESOLVED.join('\\n')}\\n' > shared.txt` } },
          { name: 'task_completed', args: { summary: 'b resolved' } },
        ],
      },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'both done' } }] },
    ],
  };
}

/**
 * The script model, with task b's calls held until task a is merged into the goal branch (the
 * `merged` promise): b's merge then conflicts with a's, whatever the machine's speed.
 */
function gatedAfterMerge(model: ScriptModel, merged: Promise<void>): LanguageModelV3 {
  const gate = async (options: LanguageModelV3CallOptions) => {
    const tag = options.providerOptions?.taskweave as { taskId?: string } | undefined;
    if (tag?.taskId === 'b') await merged;
  };
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options) => {
      await gate(options);
      return model.doGenerate(options);
    },
    doStream: async (options) => {
      await gate(options);
      return model.doStream(options);
    },
  };
}

const updates = (events: ServerEvent[], kind: string) =>
  events.filter((event) => event.type === 'agent_update' && event.update_type === kind) as (ServerEvent &
    Record<string, unknown>)[];

describe('resolve a merge conflict in the task worktree', () => {
  it('merges the goal branch into the task, refuses to close with markers left, runs the check again, merges the resolved file', async () => {
    const root = repository();
    const offered: string[][] = [];
    let aMerged = (): void => {};
    const merged = new Promise<void>((resolve) => {
      aMerged = resolve;
    });
    const { result, events } = await runWithHarness({
      model: { id: 'script:resolve', model: gatedAfterMerge(ScriptModel.fromScript(script()), merged) },
      onEvent: (event) => {
        if (event.type === 'agent_update' && event.update_type === 'task_merged' && event.task_id === 'a')
          aMerged();
      },
      workspaceRoot: root,
      plan: 'always',
      planApprover: autoApprove,
      isolation: {
        mode: 'worktree',
        apply: false,
        worktree: { share: [], copy: [] },
        ahead: new WorktreesAhead(),
      },
      failureChooser: async (info) => {
        offered.push(info.choices);
        return { action: 'resolve' };
      },
    });
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(offered).toEqual([['retry', 'resolve', 'skip', 'revise', 'abort']]);
    const [conflict] = updates(events, 'merge_conflict');
    expect(conflict?.task_id).toBe('b');
    const notes = updates(events, 'agent_note').map((event) => String(event.content));
    expect(notes.some((note) => note.includes('shared.txt holds conflict markers'))).toBe(true);
    expect(
      notes.some((note) =>
        note.includes('conflict markers (<<<<<<< or >>>>>>> lines) are still in shared.txt'),
      ),
    ).toBe(true);
    // b's check ran before the conflict and again after the resolution.
    const checks = events.filter(
      (event) =>
        event.type === 'tool_start' && event.task_id === 'b' && String(event.call_id).startsWith('check-b-'),
    );
    expect(checks).toHaveLength(2);
    const goal = String(updates(events, 'goal_branch')[0]?.branch);
    expect(git(root, 'show', `${goal}:shared.txt`)).toBe(`${RESOLVED.join('\n')}\n`);
    expect(updates(events, 'task_merged').map((event) => event.task_id)).toEqual(['a', 'b']);
    // The task branch holds the goal (with a's merge) merged in: the resolution; then b is merged
    // into the goal: a's merge, b's resolution, b's merge.
    expect(git(root, 'log', '-1', '--format=%s', `${goal}.b`).trim()).toMatch(
      /^taskweave: b step \d+ \(run_command\): merges taskweave\/plan_\w+, its conflict resolved$/,
    );
    expect(git(root, 'rev-list', '--merges', '--count', `${goal}.b`).trim()).toBe('2');
    expect(git(root, 'rev-list', '--merges', '--count', goal).trim()).toBe('3');
    // The user's checkout is untouched (apply off); no worktree is left but the idle ones.
    expect(readFileSync(path.join(root, 'shared.txt'), 'utf8')).toBe(`${LINES.join('\n')}\n`);
    expect(worktreesLeft(root)).toEqual([]);
  }, 60_000);
});
