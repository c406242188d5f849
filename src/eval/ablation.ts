import type { PlanMode, RunSettings } from '../runtime/index.js';

/**
 * The ways eval runs the agent: `none` (taskweave as it is), `no-tracking` (plans, but the model
 * keeps track of them itself: no task list, no refused final answers), `no-plans`
 * (`--plan never`) and `no-diagnostics` (no language servers: edits come back without the
 * problems they introduced, and no code_navigation) and `no-delegate` (no `delegate` tool: the
 * model reads and searches in its own conversation, without subagents).
 */
export const ABLATIONS = ['none', 'no-tracking', 'no-plans', 'no-diagnostics', 'no-delegate'] as const;

/** One of ABLATIONS. */
export type Ablation = (typeof ABLATIONS)[number];

/** The run settings of an ablation. */
export function ablationSettings(ablation: Ablation): {
  plan: PlanMode;
  taskTracking: NonNullable<RunSettings['taskTracking']>;
  lsp?: false;
  subagents?: false;
} {
  switch (ablation) {
    case 'none':
      return { plan: 'auto', taskTracking: 'orchestrator' };
    case 'no-tracking':
      return { plan: 'auto', taskTracking: 'model' };
    case 'no-plans':
      return { plan: 'never', taskTracking: 'orchestrator' };
    case 'no-diagnostics':
      return { plan: 'auto', taskTracking: 'orchestrator', lsp: false };
    case 'no-delegate':
      return { plan: 'auto', taskTracking: 'orchestrator', subagents: false };
  }
}
