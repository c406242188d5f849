import type { ControlEffect, ControlEffectKind } from '../../tools/control-effect.js';
import type { Step } from './step.js';

/**
 * The first control effect of a kind among the step's executed calls (task_completed,
 * fail_task, an accepted final_answer, an approved plan); undefined when no call had one.
 */
export function findEffect<K extends ControlEffectKind>(
  step: Pick<Step, 'executed'>,
  kind: K,
): Extract<ControlEffect, { kind: K }> | undefined {
  for (const { result } of step.executed) {
    if (result.effect?.kind === kind) return result.effect as Extract<ControlEffect, { kind: K }>;
  }
  return undefined;
}
