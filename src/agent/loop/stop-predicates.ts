import { formatDollars } from '../../events/usage-text.js';
import type { RunContext } from '../state/run-state.js';
import type { Interruption } from './step.js';

/**
 * The named stop predicates, checked before every step: the user stopped the run, the step
 * limit is reached, the session's money budget is spent, the loop's own signal was aborted (a
 * task of a plan that is ending).
 */
export function checkStopPredicates(run: RunContext, signal: AbortSignal): Interruption | undefined {
  if (run.control.stopRequested) return stoppedOutcome(run, run.steps);
  // The store stopped keeping the run's record: work nobody can find again is not done.
  const storeFailure = run.records.journal.failure;
  if (storeFailure) return { kind: 'interruption', status: 'failed', reason: storeFailure.message };
  // Checking a call failed unexpectedly (in this loop or a parallel task's): the run ends as failed.
  const gateFailure = run.approval.failure;
  if (gateFailure !== undefined) return { kind: 'interruption', status: 'failed', reason: gateFailure };
  if (run.steps >= run.maxSteps) {
    return {
      kind: 'interruption',
      status: 'max_steps',
      reason: `The step limit of ${run.maxSteps} was reached.`,
    };
  }
  const overBudget = budgetOutcome(run, run.steps);
  if (overBudget) return overBudget;
  if (signal.aborted) return abortedOutcome();
  return undefined;
}

/**
 * The session spent its budget (config `budget.session`, `--budget`): the run stops, at a step
 * boundary, never in the middle of a step (a model call in flight is paid for either way).
 * Announced once (budget_exceeded), also when parallel plan tasks each notice it.
 */
export function budgetOutcome(run: RunContext, step: number): Interruption | undefined {
  const budget = run.budget;
  if (budget === undefined || run.model.price === undefined) return undefined;
  const spent = budget.spentBefore + run.cost;
  if (spent < budget.limit) return undefined;
  if (!budget.exceeded) {
    budget.exceeded = true;
    run.emit({ type: 'agent_update', update_type: 'budget_exceeded', step, spent, budget: budget.limit });
  }
  return {
    kind: 'interruption',
    status: 'stopped',
    reason: `Budget exceeded: the session spent ${formatDollars(spent)} of its ${formatDollars(budget.limit)} budget.`,
  };
}

/**
 * The stop predicates checked between the phases of one step: a stop is honoured at the next
 * phase boundary, not only at the next step.
 */
export function checkBetweenPhases(
  run: RunContext,
  signal: AbortSignal,
  step: number,
): Interruption | undefined {
  if (run.control.stopRequested) return stoppedOutcome(run, step);
  if (signal.aborted) return abortedOutcome();
  return undefined;
}

/** The user stopped the run: announced once, where the loop noticed it. */
export function stoppedOutcome(run: RunContext, step: number): Interruption {
  run.emit({ type: 'agent_update', update_type: 'agent_stopped', step });
  return { kind: 'interruption', status: 'stopped', reason: 'Stopped by the user.' };
}

/** The loop's own signal was aborted (its task is being ended), not the whole run. */
export function abortedOutcome(): Interruption {
  return { kind: 'interruption', status: 'stopped', reason: 'The task was aborted.' };
}
