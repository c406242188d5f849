import type { EventPayload, RunStatus } from '../../events/registry.js';
import type { TaskGraph, TaskState } from '../../plan/task-graph.js';
import type { ImageLog, SessionLog, Store } from '../../store/ports.js';
import { TaskStoreError } from '../../store/store-errors.js';
import type { RunMode } from '../../store/vocabulary.js';
import type { CommandRecorder } from '../../tools/types.js';
import { errorMessage } from '../../util/error-message.js';
import { commandRecorder } from './command-records.js';
import type { Conversation } from './conversation.js';
import { storedContent, toolResultImages } from './image-parts.js';
import type { Journal } from './journal.js';

/** A plan's tasks as the events show them. */
export function planEventTasks(graph: TaskGraph) {
  return graph.tasks.map(({ id, title, description, depends_on, check }) => ({
    id,
    title,
    description,
    depends_on,
    ...(check === undefined ? {} : { check }),
  }));
}

/** Where one conversation is saved: the session log, the session and the store's task id. */
export interface SavedConversation {
  sessions: SessionLog;
  images: ImageLog;
  sessionId: string;
  taskId: string;
}

/**
 * Writes what must survive the process: the run, its conversations, its plans and their task
 * states. Every write goes through the run's journal, so each happens before the event that
 * announces it, in the order the run made them.
 */
export class RunRecords {
  /** Per plan: the plan's own task ids (keys) → the store's task ids. */
  private readonly taskIds = new Map<string, Map<string, string>>();

  constructor(
    private readonly store: Store,
    readonly journal: Journal,
  ) {}

  private get sessionId(): string {
    return this.journal.sessionId;
  }

  /** Starts a run record; its id is the run id of every event. */
  async startRun(goal: string, mode: RunMode, taskId?: string): Promise<string> {
    const run = await this.journal.write(() =>
      this.store.sessions.createRun({ sessionId: this.sessionId, goal, mode, taskId }),
    );
    return run.id;
  }

  /** Records how the run ended, then announces it (agent_completion, response_complete). */
  async finishRun(
    runId: string,
    result: {
      status: RunStatus;
      finalAnswer?: string;
      reason?: string;
      /** The model's provider refused to answer: agent_completion says `refused`. */
      refused?: boolean;
      steps: number;
      inputTokens: number;
      outputTokens: number;
      /** US dollars; null when the model has no price. */
      cost: number | null;
      mode: RunMode;
    },
  ): Promise<void> {
    const { reason, refused, ...stored } = result;
    const completion = {
      type: 'agent_update',
      update_type: 'agent_completion',
      steps: result.steps,
      status: result.status,
      final_answer: result.finalAnswer,
      reason,
      ...(refused ? { refused: true } : {}),
      input_tokens: result.inputTokens,
      output_tokens: result.outputTokens,
      ...(result.cost === null ? {} : { cost: result.cost }),
    } as const;
    try {
      await this.journal.record(
        runId,
        () => this.store.sessions.finishRun({ id: runId, ...stored }),
        completion,
      );
    } catch (error) {
      // The store failed: the end is announced all the same (not kept), as failed with the reason.
      const why = this.journal.failure?.message ?? errorMessage(error);
      this.journal.announceUnkept(runId, {
        ...completion,
        status: 'failed',
        final_answer: undefined,
        reason: why,
        refused: undefined,
      });
      this.journal.announceUnkept(runId, { type: 'response_complete', status: 'failed' });
      throw error;
    }
    const response = {
      type: 'response_complete',
      status: result.status,
      final_answer: result.finalAnswer,
    } as const;
    // emit never rejects: a write that failed shows as nothing logged, and the journal's failure.
    if ((await this.journal.emit(runId, response)) === undefined && this.journal.failure !== undefined)
      this.journal.announceUnkept(runId, response);
  }

  /** Saves the messages added to a conversation since the last save (taken now, written in turn). */
  saveMessages(runId: string, conversation: Conversation): Promise<void> {
    const from = conversation.saved ?? 0;
    const added = conversation.messages.slice(from);
    conversation.saved = conversation.messages.length;
    if (added.length === 0 || conversation.transient) return this.journal.write(async () => {});
    const taskId =
      conversation.taskId === undefined
        ? undefined
        : this.storeTaskId(conversation.planId, conversation.taskId);
    return this.journal.write(async () => {
      for (const message of added) {
        // A tool result's image (read_file) is kept by hash, as a user's is; the message names it.
        for (const image of toolResultImages(message)) await this.store.images.put(image);
        await this.store.sessions.appendMessage(
          this.sessionId,
          runId,
          message.role,
          storedContent(message.content),
          {
            taskId,
          },
        );
      }
    });
  }

  /**
   * Records a proposed plan and its tasks, then announces it; returns the plan id. `onStored`
   * runs between the write and the announcement (a request waiting for the plan's approval must
   * exist before anyone can answer it).
   */
  async proposePlan(runId: string, graph: TaskGraph, onStored?: (planId: string) => void): Promise<string> {
    const { plan, tasks } = await this.journal.record(
      runId,
      () =>
        this.store.plans.createPlan({
          sessionId: this.sessionId,
          runId,
          tasks: graph.tasks.map((task) => ({
            key: task.id,
            title: task.title,
            description: task.description,
            dependsOn: task.depends_on,
            check: task.check,
          })),
        }),
      ({ plan }) => {
        onStored?.(plan.id);
        return {
          type: 'agent_update',
          update_type: 'plan_proposed',
          plan_id: plan.id,
          tasks: planEventTasks(graph),
        };
      },
    );
    this.taskIds.set(plan.id, new Map(tasks.map((task) => [task.key ?? task.id, task.id])));
    return plan.id;
  }

  /** Records the user's verdict on a plan, then announces it. */
  async decidePlan(runId: string, planId: string, decision: 'approved' | 'rejected', feedback?: string) {
    await this.journal.record(
      runId,
      () => this.store.plans.setPlanStatus(planId, decision, feedback),
      decision === 'approved'
        ? { type: 'agent_update', update_type: 'plan_approved', plan_id: planId }
        : { type: 'agent_update', update_type: 'plan_rejected', plan_id: planId, feedback },
    );
  }

  /** Records how a plan ended; a plan already ended so (a resumed plan that only lacked its answer) stays as it is. */
  endPlan(planId: string, status: 'completed' | 'aborted'): Promise<unknown> {
    return this.journal.write(async () => {
      if ((await this.store.plans.getPlan(planId))?.status === status) return;
      await this.store.plans.setPlanStatus(planId, status);
    });
  }

  /** Where a tool call of the run records the commands it runs. */
  commands(runId: string, call: { callId: string; taskId: string | undefined }): CommandRecorder {
    return commandRecorder(this.store, { sessionId: this.sessionId, runId, ...call });
  }

  /** Knows the store ids of a plan loaded from the database (a resumed run). */
  adoptPlan(planId: string, keysToIds: Map<string, string>): void {
    this.taskIds.set(planId, keysToIds);
  }

  /**
   * Records a task's new state, then announces it with `event`. A task interrupted by a stop
   * stays in_progress in the store: a resumed run picks it up again with what it had done.
   */
  taskState(
    runId: string,
    change: { planId: string; key: string; state: TaskState; detail: string | undefined },
    event: EventPayload | undefined,
  ): Promise<unknown> {
    const id = this.storeTaskId(change.planId, change.key);
    const { tasks } = this.store;
    const { state, detail } = change;
    return this.journal.record(
      runId,
      async () => {
        try {
          switch (state) {
            case 'in_progress':
              return await tasks.start(id);
            case 'completed':
              return await tasks.complete(id, detail ?? '');
            case 'failed':
              return await tasks.fail(id, detail ?? 'failed');
            case 'blocked':
              return await tasks.block(id, detail ?? 'a dependency failed');
            case 'pending':
              return await tasks.resetToPending(id);
            case 'skipped':
              return await tasks.skip(id);
            case 'cancelled':
              return;
          }
        } catch (error) {
          // The task is in that state already (a resumed run repeating a change it had
          // written): nothing to change. No change leads from a state to itself, so a refusal
          // says so without a read before every change (a round trip on a remote store).
          if (error instanceof TaskStoreError && error.id === id && error.status === state) return;
          throw error;
        }
      },
      event,
    );
  }

  /** Where a task's conversation is saved (a resumed task continues from it). */
  taskConversation(planId: string, key: string): SavedConversation {
    return {
      sessions: this.store.sessions,
      images: this.store.images,
      sessionId: this.sessionId,
      taskId: this.storeTaskId(planId, key),
    };
  }

  private storeTaskId(planId: string | undefined, key: string): string {
    const id = planId === undefined ? undefined : this.taskIds.get(planId)?.get(key);
    if (id === undefined) throw new Error(`The task ${key} of plan ${planId} is not in the store.`);
    return id;
  }
}
