import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ContextLimits } from './context-limits.js';
import type { ModelPrice } from './prices.js';
import type { StreamTimeouts } from './stream-timeouts.js';

/** What a model call is for; the script model matches turns on it. */
export type ModelPhase = 'act' | 'reason' | 'observe' | 'plan' | 'analyze' | 'compact';

/**
 * Passed on every call as `providerOptions.taskweave`, so that logs, token accounting and the
 * script model can tell calls apart.
 */
export interface CallTag {
  runId: string;
  taskId?: string;
  /** The subagent making the call (a child run of `delegate`); absent for the run's own calls. */
  agent?: string;
  phase: ModelPhase;
}

/** A model ready to call, with the name it was chosen by (`provider:model`). */
export interface ResolvedModel {
  id: string;
  model: LanguageModelV3;
  /** Its context window and when to compact; contextLimitsFor(id) when left out. */
  context?: ContextLimits;
  /** How long its streamed replies may keep quiet; the defaults of stream-timeouts.ts when left out. */
  timeouts?: Partial<StreamTimeouts>;
  /** Its price (prices.ts: the config's `prices`, then the built-in table); undefined when unknown. */
  price?: ModelPrice;
  /** Whether it sees images (vision.ts: the config's `vision`, then the built-in table); true when left out. */
  vision?: boolean;
}

/** The model configuration is missing or wrong; the CLI exits with code 2 and this message. */
export class ModelConfigError extends Error {
  override name = 'ModelConfigError';
}
