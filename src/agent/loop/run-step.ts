import { runActPhase } from './act-phase.js';
import { applyRecovery } from './apply-recovery.js';
import { type LoopContext, queueConversationSave } from './loop-context.js';
import type { RecoveryTracker } from './recovery.js';
import type { Interruption, ReasonPhase, Step } from './step.js';
import { checkBetweenPhases, stoppedOutcome } from './stop-predicates.js';
import type { LoopStrategy } from './strategy.js';

/** One step's result: the step, an unreadable reply (the loop goes on), or the loop's end. */
export type ProducedStep =
  | { kind: 'step'; step: Step }
  | { kind: 'unreadable' }
  | { kind: 'end'; outcome: Interruption };

/**
 * Runs the phases of one step in order — the strategy's Reason, the tool step, the recovery
 * rules over its calls, the strategy's Observe — and checks the stop predicates between them: a
 * stop requested during one phase means the next one is not started.
 */
export async function runStep(
  strategy: LoopStrategy,
  ctx: LoopContext,
  index: number,
  recovery: RecoveryTracker,
): Promise<ProducedStep> {
  let reason: ReasonPhase | undefined;
  if (strategy.reason) {
    const reasoned = await strategy.reason(ctx, index);
    if (reasoned.kind === 'end') return reasoned;
    reason = reasoned.value;
    const stopped = checkBetweenPhases(ctx.run, ctx.signal, index);
    if (stopped) return { kind: 'end', outcome: stopped };
  }
  const acted = await runActPhase(ctx, index, { announceReasoning: strategy.announcesActReasoning });
  if (acted.kind !== 'acted') return acted;
  const step: Step = {
    index,
    taskId: ctx.taskId,
    phases: reason ? { reason } : {},
    reply: acted.reply,
    executed: acted.executed,
  };
  const interrupted = await afterAct(ctx, step, recovery);
  if (interrupted) return { kind: 'end', outcome: interrupted };
  if (!strategy.observe) return { kind: 'step', step };

  const stopped = checkBetweenPhases(ctx.run, ctx.signal, index);
  if (stopped) return { kind: 'end', outcome: stopped };
  const observed = await strategy.observe(ctx, step);
  if (observed.kind === 'end') return observed;
  return { kind: 'step', step: { ...step, phases: { ...step.phases, observe: observed.value } } };
}

/** After the tool step: a stop, the recovery rules, a question nobody could answer. */
async function afterAct(
  ctx: LoopContext,
  step: Step,
  recovery: RecoveryTracker,
): Promise<Interruption | undefined> {
  const { run } = ctx;
  // A run stopped while it waited for what nobody answered (a plan's approval) ends waiting for it.
  if (run.control.stopRequested && run.control.pendingQuestion === undefined)
    return stoppedOutcome(run, step.index);
  const recovered = await applyRecovery({
    run,
    conversation: ctx.conversation,
    executed: step.executed,
    step: step.index,
    taskId: ctx.taskId,
    recovery,
    signal: ctx.signal,
  });
  queueConversationSave(ctx);
  // Checking a call failed unexpectedly: the run ends as failed rather than going on unchecked.
  const failure = run.approval.failure;
  if (failure !== undefined) return { kind: 'interruption', status: 'failed', reason: failure };
  if (recovered) return recovered;
  const question = run.control.pendingQuestion;
  return question === undefined
    ? undefined
    : { kind: 'interruption', status: 'needs_input', reason: question };
}
