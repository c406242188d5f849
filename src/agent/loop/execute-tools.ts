import path from 'node:path';
import type { ModelToolCall } from '../../model/call-model.js';
import { placeOf, withDiagnostics } from '../../tools/lsp/index.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool, ToolContext } from '../../tools/types.js';
import type { ChangeRecorder } from '../../work/change-recorder.js';
import type { Emit } from '../state/emit.js';
import type { ExecutedCall } from '../state/executed-call.js';
import type { HookRunner } from '../state/hook-runner.js';
import type { PathLocks } from '../state/path-locks.js';
import type { SubagentTag } from '../state/subagent-tag.js';
import type { ToolCallGate } from '../state/tool-call-gate.js';

export interface ExecuteToolsOptions {
  calls: ModelToolCall[];
  registry: ToolRegistry;
  contextFor: (call: ModelToolCall) => ToolContext;
  emit: Emit;
  step: number;
  taskId?: string;
  /** The subagent whose calls these are (its approvals name it). */
  subagent?: SubagentTag;
  signal: AbortSignal;
  /** Decides, before each call, whether it runs, is asked or is refused. */
  approval: ToolCallGate;
  /** Per-path locks for writes (parallel tasks); none in a single loop. */
  locks?: PathLocks;
  workspaceRoot?: string;
  /** Leaves a change record (a checkpoint) of each call that changes files; none when left out. */
  changes?: ChangeRecorder;
  /** The user's beforeTool and afterTool hooks; none when left out. */
  hooks?: HookRunner;
  /** The calls are a task's check from the approved plan (an approval asked says so). */
  check?: boolean;
}

/**
 * Runs the tool calls of one model reply, in order. Consecutive read-only calls run together;
 * a call that writes runs alone, after its approval. Once the run is stopped, a call waits
 * for an approval nobody can give, or checking a call failed, the calls not yet started are not run.
 */
export async function executeTools(options: ExecuteToolsOptions): Promise<ExecutedCall[]> {
  const executed: ExecutedCall[] = [];
  for (const batch of batches(options.calls, options.registry)) {
    if (options.signal.aborted || options.approval.blocked || options.approval.failure) {
      const why = options.signal.aborted
        ? 'the run was stopped by the user'
        : options.approval.failure
          ? 'taskweave failed while checking an earlier call of this reply'
          : 'an earlier call of this reply needs an approval no one can give now';
      for (const call of batch) executed.push(notRun(call, why));
      continue;
    }
    executed.push(...(await Promise.all(batch.map((call) => executeOne(call, options)))));
  }
  return executed;
}

function batches(calls: ModelToolCall[], registry: ToolRegistry): ModelToolCall[][] {
  const result: ModelToolCall[][] = [];
  let readOnlyRun: ModelToolCall[] = [];
  for (const call of calls) {
    if (registry.get(call.name)?.readOnly) {
      readOnlyRun.push(call);
      continue;
    }
    if (readOnlyRun.length > 0) result.push(readOnlyRun);
    readOnlyRun = [];
    result.push([call]);
  }
  if (readOnlyRun.length > 0) result.push(readOnlyRun);
  return result;
}

async function executeOne(call: ModelToolCall, options: ExecuteToolsOptions): Promise<ExecutedCall> {
  const { emit, step, taskId, registry } = options;
  const tool = registry.get(call.name);
  const ctx = options.contextFor(call);
  const { hooks } = options;
  // The user's beforeTool hooks come first: a call they refuse is not asked about.
  const refusal =
    tool && hooks?.has('beforeTool')
      ? await hooks.beforeTool(call, { step, taskId }, options.signal)
      : undefined;
  const gate =
    refusal !== undefined
      ? ({ allowed: false, output: refusal, display: 'refused by a hook' } as const)
      : tool
        ? await options.approval.check({
            call,
            tool,
            ctx,
            step,
            taskId,
            subagent: options.subagent,
            signal: options.signal,
            ...(options.check ? { check: true } : {}),
          })
        : ({ allowed: true } as const);
  emit({ type: 'tool_start', call_id: call.id, name: call.name, args: call.args, step, task_id: taskId });
  const result = !gate.allowed
    ? { output: gate.output, display: gate.display, isError: true, durationMs: 0 }
    : tool
      ? await runTool(tool, call, ctx, options)
      : {
          output: `There is no tool named "${call.name}". Available tools: ${registry.names().join(', ')}.`,
          isError: true,
          durationMs: 0,
        };
  const common = {
    call_id: call.id,
    name: call.name,
    display: result.display,
    duration_ms: result.durationMs,
    task_id: taskId,
  };
  if (result.isError) emit({ type: 'tool_error', ...common, error: result.output });
  else
    emit({
      type: 'tool_complete',
      ...common,
      result: result.output,
      ...(result.diagnostics === undefined ? {} : { diagnostics: result.diagnostics }),
    });
  // After a call that ran (not one refused or unknown): formatting after an edit, say.
  if (gate.allowed && tool && hooks?.has('afterTool'))
    await hooks.afterTool(call, result, { step, taskId }, options.signal);
  return { call, result };
}

/**
 * Runs a tool; a write holds the lock of the file it targets while it runs. After a command, the
 * files its checkpoint found changed are checked by the language servers that have them open.
 */
function runTool(tool: Tool, call: ModelToolCall, ctx: ToolContext, options: ExecuteToolsOptions) {
  const { changes, step, taskId } = options;
  const run = changes
    ? async () => {
        const watch =
          tool.changes === 'command' ? ctx.languageServers?.beforeCommand(placeOf(ctx)) : undefined;
        let changed: string[] = [];
        const result = await changes.around(
          { callId: call.id, tool: call.name, changes: tool.changes, args: call.args, step, taskId },
          () => tool.run(call.args, ctx),
          (files) => {
            changed = files;
          },
        );
        if (watch === undefined || changed.length === 0) return result;
        return { ...result, ...withDiagnostics(result, await watch.finish(changed)) };
      }
    : () => tool.run(call.args, ctx);
  const lockKey = tool.readOnly ? undefined : writeLockKey(call.args, options.workspaceRoot);
  return lockKey && options.locks ? options.locks.withLock(lockKey, run) : run();
}

/** The file a writing call targets, as a lock key; undefined when it names no file. */
function writeLockKey(args: unknown, workspaceRoot: string | undefined): string | undefined {
  if (workspaceRoot === undefined || args === null || typeof args !== 'object') return undefined;
  const target = (args as Record<string, unknown>).path;
  return typeof target === 'string' ? path.resolve(workspaceRoot, target) : undefined;
}

function notRun(call: ModelToolCall, why: string): ExecutedCall {
  return { call, result: { output: `Not run: ${why}.`, isError: true, durationMs: 0 } };
}
