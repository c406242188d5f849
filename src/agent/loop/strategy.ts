import type { LoopName } from '../state/loop-name.js';
import type { LoopContext } from './loop-context.js';
import type { Interruption, ObservePhase, ReasonPhase, Step } from './step.js';

/** What a phase around the tool step produced, or the interruption that ends the loop. */
export type PhaseResult<T> = { kind: 'done'; value: T } | { kind: 'end'; outcome: Interruption };

/**
 * How a loop produces its steps. Every step has the tool step (one model call with tools, then
 * the execution of its calls); a strategy may add a phase before it and one after it. The driver
 * runs them in order, checking the stop predicates between them.
 */
export interface LoopStrategy {
  name: LoopName;
  /** Whether the text that came with the tool step's calls is announced as `agent_reason`. */
  announcesActReasoning: boolean;
  /** Before the tool step: leaves what it produced where the tool step's model call sees it. */
  reason?(ctx: LoopContext, step: number): Promise<PhaseResult<ReasonPhase>>;
  /** After the tool step and the recovery rules: judges the step's results. */
  observe?(ctx: LoopContext, step: Step): Promise<PhaseResult<ObservePhase>>;
}
