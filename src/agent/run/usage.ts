import type { ModelReply } from '../../model/call-model.js';
import type { RunContext } from './run-state.js';

/** Adds one model call's tokens to the run's total and reports them (model_usage). */
export function recordUsage(
  run: RunContext,
  reply: Pick<ModelReply, 'usage'>,
  call: { step: number; phase: string; taskId: string | undefined },
): void {
  run.usage.inputTokens += reply.usage.inputTokens;
  run.usage.outputTokens += reply.usage.outputTokens;
  run.emit({
    type: 'agent_update',
    update_type: 'model_usage',
    step: call.step,
    phase: call.phase,
    task_id: call.taskId,
    input_tokens: reply.usage.inputTokens,
    output_tokens: reply.usage.outputTokens,
  });
}
