import type { RunStatus } from '../events/registry.js';
import type { TaskGraph } from '../plan/task-graph.js';

/** What the loop does after a step: a tagged value, as openai-agents-js does. */
export type NextStep =
  | { kind: 'run_again' }
  | { kind: 'final'; answer: string }
  /** A plan was approved: the orchestrator takes over. */
  | { kind: 'plan'; planId: string; graph: TaskGraph }
  | { kind: 'task_completed'; summary: string }
  | { kind: 'task_failed'; reason: string }
  | { kind: 'interruption'; status: Exclude<RunStatus, 'completed'>; reason: string };

/** How a loop ended. */
export type LoopOutcome = Exclude<NextStep, { kind: 'run_again' }>;
