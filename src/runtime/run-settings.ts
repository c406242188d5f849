import type { RequestPolicy } from '../agent/control.js';
import type { LoopName } from '../agent/loop/loop-name.js';
import type { PlanMode } from '../agent/run-agent.js';
import type { TaskTracking } from '../agent/task-tracking.js';
import type { ProtocolName } from '../agent/wire-protocol.js';

/** How the runs of a runtime go: the same for every goal it runs. */
export interface RunSettings {
  maxSteps: number;
  plan: PlanMode;
  concurrency?: number;
  /** What a failed task leads to when no one can be asked (used by `policy.failure`). */
  onFailure: 'abort' | 'skip';
  protocol: ProtocolName;
  /** How each step runs: `react`, or `roa` (reason → act → observe). */
  loop?: LoopName;
  inputTimeoutMs?: number;
  /** Who tracks an approved plan's tasks: the orchestrator (default), or the model alone. */
  taskTracking?: TaskTracking;
  /** Who answers the runs' requests: a front end, or the non-interactive rules. */
  policy: RequestPolicy;
}
