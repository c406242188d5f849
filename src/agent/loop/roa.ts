import { runObservePhase } from './observe-phase.js';
import { runReasonPhase } from './reason-phase.js';
import type { LoopStrategy } from './strategy.js';

/**
 * `roa`, the strict reason → act → observe loop: every step is a plain reasoning call, the tool
 * step, then a plain observation call that judges whether to go on. The Reason phase owns the
 * step's `agent_reason`, so the tool step's own text is not announced a second time.
 */
export const roaStrategy: LoopStrategy = {
  name: 'roa',
  announcesActReasoning: false,
  reason: runReasonPhase,
  observe: runObservePhase,
};
