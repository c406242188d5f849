import type { AgentUpdateOf } from '../../events/registry.js';

/**
 * Which loop a run uses: `react` (tool-first) or `roa` (strict reason → act → observe). Taken
 * from the event registry's `agent_start.loop`, so the two never drift apart.
 */
export type LoopName = AgentUpdateOf<'agent_start'>['loop'];

/** The loop of a run when none is given. */
export const DEFAULT_LOOP: LoopName = 'react';
