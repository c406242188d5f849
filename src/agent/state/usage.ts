import type { ModelReply } from '../../model/call-model.js';
import { costAt } from '../../model/prices.js';
import type { RunContext } from './run-state.js';

/**
 * Adds one model call's tokens (and, when the model has a price, their cost) to the run's total
 * and reports them (model_usage; `cost` only when priced).
 */
export function recordUsage(
  run: RunContext,
  reply: Pick<ModelReply, 'usage'>,
  call: { step: number; phase: string; taskId: string | undefined },
): void {
  run.usage.inputTokens += reply.usage.inputTokens;
  run.usage.outputTokens += reply.usage.outputTokens;
  const price = run.model.price;
  const cost = price === undefined ? undefined : costAt(price, reply.usage);
  if (cost !== undefined) run.cost += cost;
  run.emit({
    type: 'agent_update',
    update_type: 'model_usage',
    step: call.step,
    phase: call.phase,
    task_id: call.taskId,
    input_tokens: reply.usage.inputTokens,
    output_tokens: reply.usage.outputTokens,
    ...(cost === undefined ? {} : { cost }),
  });
}
