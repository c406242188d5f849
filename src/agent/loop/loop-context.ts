import type { Tool as SdkTool, ToolChoice } from 'ai';
import type { ModelPhase } from '../../model/types.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Workspace } from '../../tools/workspace/index.js';
import type { Conversation, RunContext } from '../state/run-state.js';

/** What every phase of one loop works with: the run, this loop's conversation, tools and signal. */
export interface LoopContext {
  run: RunContext;
  conversation: Conversation;
  registry: ToolRegistry;
  /** Aborts this loop's model calls and tools (a task's own signal, or the run's). */
  signal: AbortSignal;
  taskId?: string;
  /** What this conversation has read, for the read-before-edit rule; the run's when absent. */
  files?: FileTracker;
  /** The tag of the tool step's model call: `act`, or `plan` when a plan is required. */
  actPhase: ModelPhase;
  /** Forces a tool on the next tool step only; the tool step clears it once its call is made. */
  toolChoice?: ToolChoice<Record<string, SdkTool>>;
  /**
   * Where this loop's tools work when not the run's workspace: a plan task's git worktree. Its
   * steps are then commits on the task's branch, not change records.
   */
  workspace?: Workspace;
  /** Replies in a row that were no answer (empty, cut off, reasoning only); see NON_ANSWER_LIMIT. */
  nonAnswers: number;
}

/** Saves the messages added to the conversation since the last save, through the run's journal. */
export function saveConversation(ctx: LoopContext): Promise<void> {
  return ctx.run.records.saveMessages(ctx.run.runId, ctx.conversation);
}

/**
 * Saves the new messages without waiting for the commit, when nothing that follows depends on
 * it being on disk: the journal writes it before anything queued later (a task's completion,
 * the end of the run), and a failed write ends the run at its next step (the stop predicates).
 * Waiting would put one commit (an fsync) between a model's reply and the next call.
 */
export function queueConversationSave(ctx: LoopContext): void {
  saveConversation(ctx).catch(() => {});
}
