import type { TaskGraph } from '../plan/task-graph.js';

/**
 * What a control tool means for the run, returned as a value in its result (never written into
 * shared state): the loop's `decide` reads it from the step's executed calls. Defined here, not
 * in `agent/`, because tools never import the agent.
 */
export type ControlEffect =
  /** task_completed: the current plan task's objective is met. */
  | { kind: 'task_completed'; summary: string }
  /** fail_task: the current plan task cannot be done. */
  | { kind: 'task_failed'; reason: string }
  /** final_answer, when it was accepted: the run ends with this answer. */
  | { kind: 'final_answer'; answer: string }
  /** plan_actions, once the user approved the plan: the orchestrator takes over. */
  | { kind: 'plan_approved'; planId: string; graph: TaskGraph };

/** The kinds of control effect. */
export type ControlEffectKind = ControlEffect['kind'];
