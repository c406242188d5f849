import type { ModelMessage } from 'ai';
import type { ModelToolCall } from '../../model/call-model.js';
import type { TaskGraph, TaskState } from '../../plan/task-graph.js';
import type { CompletedTask } from '../../prompts/task-prompt.js';
import { fillSection } from '../../prompts/template.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { ToolContext } from '../../tools/types.js';
import type { Workspace } from '../../tools/workspace/index.js';
import type { GoalWorktrees } from '../../work/goal-worktrees.js';
import { loadConversation } from '../conversation/stored-conversation.js';
import type { LoopOutcome, NextStep } from '../loop/step.js';
import { toolContextFor } from '../loop/tool-context.js';
import type { RunContext } from '../state/run-state.js';

/** The template of what the model reads when its final answer is refused (src/prompts/final-answer-refusal.md). */
const REFUSALS = 'final-answer-refusal';

/** final_answer refusals in one run before the user is asked. */
export const FINAL_ANSWER_REFUSAL_LIMIT = 3;

/**
 * The orchestrator's state for one approved plan while it runs: the task states (the
 * orchestrator, not the model, tracks what is left), the completed summaries, and the run-wide
 * interruption when a task's loop must end the whole run.
 */
export class PlanRun {
  readonly states = new Map<string, TaskState>();
  private readonly abortController = new AbortController();
  private interruption: Extract<LoopOutcome, { kind: 'interruption' }> | undefined;
  private escalationPending = false;

  readonly run: RunContext;
  readonly goal: string;
  readonly planId: string;
  readonly graph: TaskGraph;
  /** Completed tasks of this run, earlier plans included; appended as tasks complete. */
  readonly completed: CompletedTask[];
  /** The goal's git worktrees when its tasks run in worktrees (one per task, merged back). */
  readonly worktrees: GoalWorktrees | undefined;

  constructor(options: {
    run: RunContext;
    goal: string;
    planId: string;
    graph: TaskGraph;
    completed: CompletedTask[];
    /** States from the store when a plan resumes. */
    initialState?: ReadonlyMap<string, TaskState>;
    worktrees?: GoalWorktrees;
  }) {
    this.run = options.run;
    this.worktrees = options.worktrees;
    this.goal = options.goal;
    this.planId = options.planId;
    this.graph = options.graph;
    this.completed = options.completed;
    for (const task of options.graph.tasks) {
      const state = options.initialState?.get(task.id) ?? 'pending';
      this.states.set(task.id, state);
      if (state === 'in_progress') this.interruptedTasks.add(task.id);
    }
  }

  /** Tasks that were in progress when the plan was resumed: they continue their conversation. */
  private readonly interruptedTasks = new Set<string>();

  /**
   * The saved conversation of a task interrupted in an earlier process (once; a later retry of
   * the task starts afresh).
   */
  async takeSavedConversation(taskId: string): Promise<ModelMessage[]> {
    if (!this.interruptedTasks.delete(taskId)) return [];
    const saved = this.run.records.taskConversation(this.planId, taskId);
    return loadConversation(saved.sessions, saved.sessionId, saved.taskId, saved.images);
  }

  private combinedSignal: AbortSignal | undefined;

  /** Aborted when the user stops the run or a task's loop must end the whole run. */
  get signal(): AbortSignal {
    this.combinedSignal ??= AbortSignal.any([this.abortController.signal, this.run.control.signal]);
    return this.combinedSignal;
  }

  /** Why the whole run must end (max steps, needs input), if a task said so. */
  get interrupted(): Extract<LoopOutcome, { kind: 'interruption' }> | undefined {
    return this.interruption;
  }

  /** Ends the whole plan: running tasks are aborted, the run ends with this outcome. */
  interrupt(outcome: Extract<LoopOutcome, { kind: 'interruption' }>): void {
    this.interruption ??= outcome;
    this.abortController.abort(new Error(outcome.reason));
  }

  /** Tasks not completed or skipped. */
  get remaining(): number {
    let count = 0;
    for (const state of this.states.values()) if (state !== 'completed' && state !== 'skipped') count += 1;
    return count;
  }

  /**
   * Refuses a final_answer made while tasks remain (always the case inside a task). `step`: the
   * step of the call, not run.steps (which a parallel task may have moved since).
   */
  considerFinalAnswer(
    _answer: string,
    { taskId, step }: { taskId: string; step: number },
  ): { accepted: boolean; message: string } {
    const remaining = this.remaining;
    this.run.emit({ type: 'agent_update', update_type: 'final_answer_refused', step, remaining });
    const current = this.graph.get(taskId);
    if (remaining === 1) {
      // Only the current task is left: the model is finishing, just in the wrong order. This
      // does not count towards asking the user.
      return {
        accepted: false,
        message: fillSection(REFUSALS, 'current-task-open', { task: current?.title ?? taskId }),
      };
    }
    this.run.finalAnswerRefusals += 1;
    if (this.run.finalAnswerRefusals === FINAL_ANSWER_REFUSAL_LIMIT) this.escalationPending = true;
    return {
      accepted: false,
      message: fillSection(REFUSALS, 'tasks-remain', {
        remaining: String(remaining),
        total: String(this.graph.tasks.length),
        task: current?.title ?? taskId,
      }),
    };
  }

  /**
   * After FINAL_ANSWER_REFUSAL_LIMIT refusals the user is asked how to go on; returns the note
   * for the model, or the outcome when no one can answer. `step`: the step being decided (parallel
   * tasks share run.steps).
   */
  async escalateRefusals(step: number): Promise<{ note: string } | { outcome: NextStep } | undefined> {
    if (!this.escalationPending) return undefined;
    this.escalationPending = false;
    const question =
      `The model tried to end the run ${FINAL_ANSWER_REFUSAL_LIMIT} times while ${this.remaining === 1 ? '1 task remains' : `${this.remaining} tasks remain`}. ` +
      'How should it go on? (Your answer is passed to the model; stop the run to end it.)';
    const reply = await this.run.control.requestInput(question, { step });
    if (reply.status === 'unavailable')
      return { outcome: { kind: 'interruption', status: 'needs_input', reason: question } };
    if (reply.status === 'stopped') {
      return { outcome: { kind: 'interruption', status: 'stopped', reason: 'Stopped by the user.' } };
    }
    return {
      note:
        reply.status === 'answered'
          ? fillSection(REFUSALS, 'user-said', { answer: reply.answer })
          : fillSection(REFUSALS, 'no-answer'),
    };
  }

  /** What a tool call of a task may touch. */
  toolContext(
    call: ModelToolCall,
    options: { step: number; taskId: string; signal: AbortSignal; files: FileTracker; workspace?: Workspace },
  ): ToolContext {
    return toolContextFor(this.run, { call, ...options });
  }
}
