import type { ModelMessage } from 'ai';
import type { RunStatus } from '../events/registry.js';
import type { TaskGraph, TaskState } from '../plan/task-graph.js';
import type { RunMode } from '../store/schema.js';
import type { SessionStore } from '../store/session-store.js';
import type { TaskStore } from '../store/task-store.js';
import type { Conversation } from './run-state.js';
import { loadConversation } from './stored-conversation.js';

/** The stores a run writes to, and the session it belongs to. */
export interface RunStores {
  sessionId: string;
  sessions: SessionStore;
  tasks: TaskStore;
}

/**
 * Writes what must survive the process: the run, its conversations, its plans and their task
 * states. SQLite is the source of truth, so each write happens before the event announcing it.
 */
export class RunRecords {
  /** Per plan: the plan's own task ids (keys) → the store's task ids. */
  private readonly taskIds = new Map<string, Map<string, string>>();

  constructor(private readonly stores: RunStores) {}

  /** Starts a run record; its id is the run id of every event. */
  startRun(goal: string, mode: RunMode): string {
    return this.stores.sessions.createRun({ sessionId: this.stores.sessionId, goal, mode }).id;
  }

  finishRun(
    runId: string,
    result: {
      status: RunStatus;
      finalAnswer?: string;
      steps: number;
      inputTokens: number;
      outputTokens: number;
      mode: RunMode;
    },
  ): void {
    this.stores.sessions.finishRun({ id: runId, ...result });
  }

  /** Saves the messages added to a conversation since the last save. */
  saveMessages(runId: string, conversation: Conversation): void {
    const from = conversation.saved ?? 0;
    for (const message of conversation.messages.slice(from)) {
      this.stores.sessions.appendMessage(this.stores.sessionId, runId, message.role, message.content, {
        taskId:
          conversation.taskId === undefined
            ? undefined
            : this.storeTaskId(conversation.planId, conversation.taskId),
      });
    }
    conversation.saved = conversation.messages.length;
  }

  /** Records a proposed plan and its tasks; returns the plan id events will carry. */
  proposePlan(runId: string, graph: TaskGraph): string {
    const { plan, tasks } = this.stores.tasks.createPlan({
      sessionId: this.stores.sessionId,
      runId,
      tasks: graph.tasks.map((task) => ({
        key: task.id,
        title: task.title,
        description: task.description,
        dependsOn: task.depends_on,
        check: task.check,
      })),
    });
    this.taskIds.set(plan.id, new Map(tasks.map((task) => [task.key ?? task.id, task.id])));
    return plan.id;
  }

  decidePlan(planId: string, decision: 'approved' | 'rejected', feedback?: string): void {
    this.stores.tasks.setPlanStatus(planId, decision, feedback);
  }

  endPlan(planId: string, status: 'completed' | 'aborted'): void {
    this.stores.tasks.setPlanStatus(planId, status);
  }

  /** Knows the store ids of a plan loaded from the database (a resumed run). */
  adoptPlan(planId: string, keysToIds: Map<string, string>): void {
    this.taskIds.set(planId, keysToIds);
  }

  /**
   * Records a task's new state. A task interrupted by a stop stays in_progress in the store: a
   * resumed run picks it up again with what it had done.
   */
  taskState(planId: string, key: string, state: TaskState, detail: string | undefined): void {
    const id = this.storeTaskId(planId, key);
    const store = this.stores.tasks;
    const current = store.get(id)?.status;
    switch (state) {
      case 'in_progress':
        if (current !== 'in_progress') store.start(id);
        return;
      case 'completed':
        store.complete(id, detail ?? '');
        return;
      case 'failed':
        store.fail(id, detail ?? 'failed');
        return;
      case 'blocked':
        if (current !== 'blocked') store.block(id, detail ?? 'a dependency failed');
        return;
      case 'pending':
        if (current !== 'pending') store.resetToPending(id);
        return;
      case 'skipped':
        // The store has no "skipped": a cancelled plan task counts as skipped when a plan resumes.
        store.cancel(id);
        return;
      case 'cancelled':
        return;
    }
  }

  /** The saved conversation of a task (a resumed task continues from it), repaired if needed. */
  taskMessages(planId: string, key: string): ModelMessage[] {
    return loadConversation(this.stores.sessions, this.stores.sessionId, this.storeTaskId(planId, key));
  }

  private storeTaskId(planId: string | undefined, key: string): string {
    const id = planId === undefined ? undefined : this.taskIds.get(planId)?.get(key);
    if (id === undefined) throw new Error(`The task ${key} of plan ${planId} is not in the store.`);
    return id;
  }
}
