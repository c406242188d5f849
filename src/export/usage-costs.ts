import type { ServerEvent } from '../events/registry.js';

/**
 * The money side of a session's token use, read from its `model_usage` events: an event carries
 * `cost` (in the price table's currency) when its model has a price. Summed per step (keyed like
 * the session view's step ids), per run and for the session; a total exists only where at least
 * one call had a price, so that an unknown model shows tokens only, never a made-up figure.
 */
export interface UsageCosts {
  /** By step id (`<run>:step:<n>`). */
  steps: Map<string, number>;
  runs: Map<string, number>;
  session?: number;
}

/** The costs the events carry. */
export function usageCosts(events: readonly ServerEvent[]): UsageCosts {
  const costs: UsageCosts = { steps: new Map(), runs: new Map() };
  for (const event of events) {
    if (event.type !== 'agent_update' || event.update_type !== 'model_usage') continue;
    const cost = costOf(event);
    if (cost === undefined) continue;
    const stepId = `${event.run_id}:step:${event.step}`;
    costs.steps.set(stepId, (costs.steps.get(stepId) ?? 0) + cost);
    costs.runs.set(event.run_id, (costs.runs.get(event.run_id) ?? 0) + cost);
    costs.session = (costs.session ?? 0) + cost;
  }
  return costs;
}

/** The event's `cost`, when it is a usable number (a log from before prices has none). */
function costOf(event: object): number | undefined {
  if (!('cost' in event)) return undefined;
  const { cost } = event;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : undefined;
}
