import type { ModelMessage } from 'ai';
import {
  loadConversation,
  loadStoredPlan,
  type RunAgentOptions,
  type RunResult,
  resumePlan,
  runAgent,
} from '../../agent/index.js';
import type { Store } from '../../store/ports.js';
import { loggedUsage } from '../books/spending.js';
import type { RunSettings } from '../setup/run-settings.js';
import { planAwaitingAnswer } from './answer-pending-plan.js';
import { interruptedSubagents } from './interrupted-subagents.js';

/** The message that continues a simple run the process left unfinished. */
export const CONTINUE_INTERRUPTED =
  '[taskweave] The previous run was interrupted before it finished (the process ended). Continue the request where it left off; files you changed are as you left them.';

/** The message that continues a simple run the user stopped (its goal is `stopped` in the to-do list). */
export const CONTINUE_STOPPED =
  '[taskweave] The user stopped the previous run before it finished and now asks to continue it. Continue the request where it left off; files you changed are as you left them.';

/**
 * Continues a session an earlier process left unfinished: its unfinished plan resumes (completed
 * tasks stay done), or else the conversation goes on from where it stopped (`stopped`: the user
 * stopped its last run, which is continued).
 */
export async function continueSession(
  store: Store,
  options: {
    sessionId: string;
    goal: string;
    ownTaskId?: string;
    run: Omit<RunAgentOptions, 'goal'>;
    plan: RunSettings['plan'];
    stopped?: boolean;
  },
): Promise<RunResult> {
  const { sessions, plans } = store;
  const runs = await sessions.runs(options.sessionId);
  const interrupted = runs.filter((run) => run.status === 'running');
  // Read before the interrupted runs are closed: it looks at how they ended.
  const awaitingAnswer =
    interrupted.length > 0
      ? await planAwaitingAnswer(store, { sessionId: options.sessionId, runs })
      : undefined;
  // The processes of these runs are gone; their records say so before the new run starts, with
  // the tokens and cost their calls logged (the session's budget counts them).
  const logged =
    interrupted.length > 0 ? await loggedUsage(store, options.sessionId, interrupted) : undefined;
  for (const run of interrupted) {
    const usage = logged?.get(run.id);
    await sessions.finishRun({
      id: run.id,
      status: 'stopped',
      steps: run.steps,
      inputTokens: Math.max(run.inputTokens, usage?.inputTokens ?? 0),
      outputTokens: Math.max(run.outputTokens, usage?.outputTokens ?? 0),
      cost: run.cost ?? usage?.cost ?? null,
    });
  }
  const children = await interruptedSubagents(
    store,
    options.sessionId,
    interrupted.map((run) => run.id),
  );
  const [plan] = await plans.unfinishedPlans(options.sessionId);
  // A plan with every task done resumes at its final answer: nothing is planned or run again.
  const planId = plan?.id ?? awaitingAnswer;
  if (planId)
    return resumePlan({ ...options.run, ownTaskId: options.ownTaskId }, await loadStoredPlan(store, planId));
  if (interrupted.length === 0 && options.stopped)
    return runAgent({
      goal: CONTINUE_STOPPED,
      continuesGoal: runs.at(-1)?.goal ?? options.goal,
      history: await loadConversation(sessions, options.sessionId, null, store.images),
      plan: options.plan,
      ownTaskId: options.ownTaskId,
      ...options.run,
    });
  const history = await loadConversation(sessions, options.sessionId, null, store.images);
  const interruptedGoal = interrupted.at(-1)?.goal ?? options.goal;
  // A process killed after it recorded its run but before it saved the goal's message left
  // nothing to continue: the goal runs from its start (told to continue, the model would not
  // know the request).
  const continues = interrupted.length > 0 && lastUserText(history).includes(interruptedGoal);
  return runAgent({
    goal: continues
      ? [CONTINUE_INTERRUPTED, ...children.map((child) => interruptedChildLine(child))].join('\n')
      : interrupted.length > 0
        ? interruptedGoal
        : options.goal,
    // Shown and recorded under the goal it continues, not under taskweave's message to the model.
    ...(continues ? { continuesGoal: interruptedGoal } : {}),
    history,
    plan: options.plan,
    ownTaskId: options.ownTaskId,
    ...options.run,
  });
}

/** The text of the conversation's last user message ('' when it has none). */
function lastUserText(history: readonly ModelMessage[]): string {
  const message = [...history].reverse().find((entry) => entry.role === 'user');
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** What the continuing run is told about a subagent the killed process left running. */
function interruptedChildLine(child: { agent: string; job: string; files: string[] }): string {
  const changed =
    child.files.length === 0 ? 'it changed no file' : `it may have changed ${child.files.join(', ')}`;
  return `[taskweave] The ${child.agent} subagent working on "${child.job}" was interrupted and is not continued; ${changed}.`;
}
