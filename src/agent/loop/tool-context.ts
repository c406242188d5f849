import { callModel, type ModelToolCall } from '../../model/call-model.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { ToolContext } from '../../tools/types.js';
import type { Workspace } from '../../tools/workspace/index.js';
import type { RunContext } from '../state/run-state.js';
import { recordUsage } from '../state/usage.js';

/** Builds what one tool call may touch. */
export function toolContextFor(
  run: RunContext,
  options: {
    call: ModelToolCall;
    step: number;
    taskId: string | undefined;
    signal: AbortSignal;
    /** What this conversation has read (each plan task keeps its own); the run's when left out. */
    files?: FileTracker;
    /** Where the call works (a plan task's worktree); the run's workspace when left out. */
    workspace?: Workspace;
  },
): ToolContext {
  const { call, step, taskId, signal } = options;
  return {
    workspace: options.workspace ?? run.workspace,
    signal,
    control: {
      requestInput: (question, requestSignal) =>
        run.control.requestInput(question, { signal: requestSignal, step, taskId, subagent: run.subagent }),
    },
    files: options.files ?? run.files,
    callId: call.id,
    step,
    sandbox: run.sandbox,
    commands: run.records.commands(run.runId, { callId: call.id, taskId }),
    runId: run.runId,
    taskId,
    background: run.background,
    ...(run.languageServers === undefined ? {} : { languageServers: run.languageServers }),
    ...(run.web === undefined ? {} : { web: run.web }),
    vision: run.model.vision !== false,
    progress: (content) =>
      run.emit({ type: 'tool_progress', call_id: call.id, name: call.name, content, task_id: taskId }),
    model: {
      async complete({ system, prompt, signal: requestSignal }) {
        const reply = await callModel({
          model: run.model,
          system: system ?? '',
          messages: [{ role: 'user', content: prompt }],
          tag: { runId: run.runId, taskId, agent: run.subagent?.agent, phase: 'analyze' },
          signal: requestSignal ?? signal,
        });
        recordUsage(run, reply, { step, phase: 'analyze', taskId });
        return reply.text;
      },
    },
  };
}
