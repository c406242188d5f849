import type { ModelReply, ModelToolCall } from '../../model/call-model.js';
import { fillSection } from '../../prompts/template.js';
import type { ExecutedCall } from '../state/executed-call.js';
import { addNote } from '../state/notes.js';
import { executeTools } from './execute-tools.js';
import { type LoopContext, queueConversationSave, saveConversation } from './loop-context.js';
import {
  continueRequest,
  NON_ANSWER_LIMIT,
  type NonAnswerKind,
  nonAnswerFailure,
  nonAnswerOf,
} from './non-answer.js';
import { REPETITION_FAIL_LIMIT } from './recovery.js';
import { limitReplyCalls, REPLY_LIMITS } from './reply-limits.js';
import type { Interruption } from './step.js';
import { callModelForStep } from './step-model-call.js';
import { toolContextFor } from './tool-context.js';

/** The tool step's result: the reply and its executed calls, an unreadable reply, or the end. */
export type ActResult =
  | { kind: 'acted'; reply: ModelReply; executed: ExecutedCall[] }
  /**
   * The reply could not be read (JSON protocol), or was no answer (empty, cut off, reasoning
   * only): what was wrong went back to the model and the loop goes on.
   */
  | { kind: 'unreadable' }
  | { kind: 'end'; outcome: Interruption };

/**
 * The tool step, the same in every strategy: one model call with the tools, read through the
 * wire protocol, then the execution of the calls it made. The conversation is saved before the
 * calls run and again after their results are in.
 */
export async function runActPhase(
  ctx: LoopContext,
  step: number,
  options: { announceReasoning: boolean },
): Promise<ActResult> {
  const { run, conversation, registry, taskId, signal } = ctx;
  const protocol = run.protocol;
  const tools = protocol.modelTools(registry, run);
  const called = await callModelForStep(ctx, {
    step,
    phase: ctx.actPhase,
    system: protocol.system(conversation.system, registry, run),
    messages: conversation.messages,
    tools,
    toolChoice: tools ? ctx.toolChoice : undefined,
    streamText: protocol.streamsText,
  });
  if (!called.ok) return { kind: 'end', outcome: called.outcome };
  ctx.toolChoice = undefined;

  const read = protocol.read(called.reply, registry);
  const nonAnswer = nonAnswerOf(called.reply, read);
  if (nonAnswer) return askToContinue(ctx, step, called.reply, nonAnswer);
  ctx.nonAnswers = 0;
  if (!read.ok) {
    conversation.messages.push(protocol.assistantMessage(called.reply, read));
    run.emit({
      type: 'agent_update',
      update_type: 'agent_note',
      step,
      content: `The reply could not be read: ${read.error}`,
      task_id: taskId,
    });
    conversation.messages.push(protocol.errorMessage(read.error));
    await saveConversation(ctx);
    return { kind: 'unreadable' };
  }
  const limited = limitReplyCalls(read.reply.toolCalls);
  const kept = limited.repeated ? [...limited.run, limited.repeated] : limited.run;
  // Native calls are stored as the reply's own parts: only the kept ones, each with its result.
  const raw = called.reply.toolCalls.length > 0 ? { ...called.reply, toolCalls: kept } : called.reply;
  conversation.messages.push(protocol.assistantMessage(raw, read));
  // Calls that change something are on record before they run: a crash in between leaves a
  // call whose result a resumed run recovers from the event log (or marks unknown) instead of
  // running it again blind. Read-only calls (reads, searches, the control tools) can simply run
  // again after a crash, so their record is not waited for.
  const changesSomething = limited.run.some((call) => registry.get(call.name)?.readOnly === false);
  if (changesSomething) await saveConversation(ctx);
  else queueConversationSave(ctx);
  if (options.announceReasoning && read.reasoning && read.reasoning.trim() !== '') {
    run.emit({
      type: 'agent_update',
      update_type: 'agent_reason',
      step,
      content: read.reasoning,
      task_id: taskId,
    });
  }
  const executed = await executeTools({
    calls: limited.run,
    registry,
    contextFor: (call) =>
      toolContextFor(run, { call, step, taskId, signal, files: ctx.files, workspace: ctx.workspace }),
    emit: run.emit,
    step,
    taskId,
    subagent: run.subagent,
    signal,
    approval: run.approval,
    locks: run.pathLocks,
    workspaceRoot: (ctx.workspace ?? run.workspace).root,
    // In a worktree a task's checkpoints are commits on its branch.
    changes: ctx.workspace ? undefined : run.changes,
    hooks: run.hooks,
  });
  if (limited.repeated) executed.push(notRunRepeated(ctx, step, limited.repeated));
  const results = protocol.resultsMessage(executed);
  if (results) conversation.messages.push(results);
  if (limited.note) addNote(run, conversation, { step, taskId, content: limited.note });
  // Queued before any way out of the step, so that a stored conversation never ends with calls
  // that have no results (a continued session would be refused by the provider).
  queueConversationSave(ctx);
  return { kind: 'acted', reply: { ...read.reply, toolCalls: kept }, executed };
}

/** The repeated call of a reply, reported as not run (the repetition rule then ends the loop). */
function notRunRepeated(ctx: LoopContext, step: number, call: ModelToolCall): ExecutedCall {
  const output = fillSection(REPLY_LIMITS, 'repeated-not-run', { limit: String(REPETITION_FAIL_LIMIT) });
  const common = { call_id: call.id, name: call.name, task_id: ctx.taskId };
  ctx.run.emit({ type: 'tool_start', ...common, args: call.args, step });
  ctx.run.emit({ type: 'tool_error', ...common, error: output, duration_ms: 0 });
  return { call, result: { output, isError: true, durationMs: 0 } };
}

/**
 * A reply that neither calls a tool nor answers: the model is asked to continue, up to
 * NON_ANSWER_LIMIT such replies in a row; then the loop ends as failed with the reason.
 */
async function askToContinue(
  ctx: LoopContext,
  step: number,
  raw: ModelReply,
  kind: NonAnswerKind,
): Promise<ActResult> {
  const { run, conversation, taskId } = ctx;
  ctx.nonAnswers += 1;
  if (ctx.nonAnswers >= NON_ANSWER_LIMIT) {
    const reason = nonAnswerFailure(kind);
    run.emit({ type: 'agent_update', update_type: 'agent_note', step, content: reason, task_id: taskId });
    const outcome: Interruption = { kind: 'interruption', status: 'failed', reason };
    // The provider refused to answer (finish reason content-filter): said as such, not only in words.
    return { kind: 'end', outcome: kind === 'filtered' ? { ...outcome, refused: true } : outcome };
  }
  const request = continueRequest(kind);
  run.emit({ type: 'agent_update', update_type: 'agent_note', step, content: request, task_id: taskId });
  // An empty assistant turn is refused by some providers; a fragment stays so the model sees it.
  if (raw.text.trim() !== '') conversation.messages.push({ role: 'assistant', content: raw.text });
  conversation.messages.push({ role: 'user', content: `[taskweave] ${request}` });
  await saveConversation(ctx);
  return { kind: 'unreadable' };
}
