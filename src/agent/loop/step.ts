import type { RunStatus } from '../../events/registry.js';
import type { ModelReply } from '../../model/call-model.js';
import type { TaskGraph } from '../../plan/task-graph.js';
import type { ExecutedCall } from '../state/executed-call.js';

/** What the Reason phase of a `roa` step produced: the model's thinking before it acts. */
export interface ReasonPhase {
  /** The reasoning as shown to the user (the free text, or the block's plan when there is none). */
  content: string;
  /** The block's `plan`, when the reply had a readable JSON block. */
  plan?: string;
  toolsToConsider: string[];
  /** The model judged the goal already met. */
  finish: boolean;
  /** Whether the reply had a readable JSON block (otherwise it was taken as free text). */
  structured: boolean;
}

/** What the Observe phase of a `roa` step produced: the model's verdict on the step's results. */
export interface ObservePhase {
  content: string;
  /** False when the model judged the goal met (or out of reach); true when the block was missing. */
  shouldContinue: boolean;
  finalAnswer?: string;
  structured: boolean;
}

/**
 * One step of the loop as a value: what each phase produced, the tool step's reply and the
 * calls it executed. Strategies produce steps; the driver applies the stop predicates, the
 * recovery rules and `decide` to them.
 */
export interface Step {
  /** The run's step number (all tasks together). */
  index: number;
  taskId?: string;
  /** The phases around the tool step (only `roa` has them). */
  phases: { reason?: ReasonPhase; observe?: ObservePhase };
  /** The tool step's reply, read into the one internal shape. */
  reply: ModelReply;
  executed: ExecutedCall[];
}

/** What the loop does after a step: a tagged value, as openai-agents-js does. */
export type NextStep =
  | { kind: 'run_again' }
  | { kind: 'final'; answer: string }
  /** A plan was approved: the orchestrator takes over. */
  | { kind: 'plan'; planId: string; graph: TaskGraph }
  | { kind: 'task_completed'; summary: string }
  | { kind: 'task_failed'; reason: string }
  /** `refused`: the model's provider refused to answer (its replies stopped by the content filter). */
  | { kind: 'interruption'; status: Exclude<RunStatus, 'completed'>; reason: string; refused?: boolean };

/** How a loop ended. */
export type LoopOutcome = Exclude<NextStep, { kind: 'run_again' }>;

/** A loop that ends the whole run early: stopped, out of steps, failed or waiting for input. */
export type Interruption = Extract<LoopOutcome, { kind: 'interruption' }>;
