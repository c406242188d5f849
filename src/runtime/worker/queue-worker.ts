import type { RunSafety } from '../../agent/approval/run-safety.js';
import { loadConversation } from '../../agent/conversation/stored-conversation.js';
import { loadStoredPlan } from '../../agent/orchestrator/stored-plan.js';
import { type RunAgentOptions, type RunResult, resumePlan, runAgent } from '../../agent/run/run-agent.js';
import { RunControl } from '../../agent/state/control.js';
import { Journal } from '../../agent/state/journal.js';
import type { EventBus } from '../../events/bus.js';
import type { RunStatus } from '../../events/registry.js';
import type { ResolvedModel } from '../../model/types.js';
import type { Store } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { TaskStoreError } from '../../store/store-errors.js';
import type { McpServerConfig } from '../../tools/mcp/mcp-config.js';
import { coreTools } from '../../tools/registry.js';
import type { Workspace } from '../../tools/workspace/workspace.js';
import { errorMessage } from '../../util/error-message.js';
import { DEFAULT_ISOLATION } from '../../work/isolation.js';
import { DEFAULT_WORKTREE_COPY, DEFAULT_WORKTREE_SHARE } from '../../work/worktree-setup.js';
import { takeStoredAnswer } from '../answers/stored-answer-continuation.js';
import type { BackgroundBook } from '../books/background-book.js';
import { RuntimeInputError } from '../setup/errors.js';
import type { RunSettings } from '../setup/run-settings.js';
import type { RuntimeSafety } from '../setup/runtime-safety.js';
import { planAwaitingAnswer } from './answer-pending-plan.js';
import { carryFailureDecisions } from './carried-decisions.js';
import { closeGoalTask, closeGoalTaskAndClaimNext } from './close-goal-task.js';
import { cleanUpAfterCrash } from './crash-cleanup.js';
import { decodeQueuedSettings, type QueuedSettings, settingsDifferences } from './queued-settings.js';
import { sessionSpent } from './spending.js';
import { isDeadLocalWorker } from './worker-identity.js';

/** The lease when TASKWEAVE_LEASE_MS does not set another. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * How long a worker's claim on a task lasts without renewal; a dead worker's task returns to the
 * queue after it (another machine takes it over). `TASKWEAVE_LEASE_MS` (at least 1000) shortens
 * or lengthens it: every worker of a queue should use the same.
 */
export const LEASE_MS = leaseFrom(process.env.TASKWEAVE_LEASE_MS);
/** How often a worker looks at its task (was it cancelled?) while the agent works on it. */
export const WATCH_INTERVAL_MS = 500;
/** How often the lease is renewed: a third of it, at most every 10 s. */
export const RENEW_EVERY_MS = Math.min(10_000, Math.floor(LEASE_MS / 3));

/** The lease TASKWEAVE_LEASE_MS gives (whole milliseconds, at least 1000), else the default. */
export function leaseFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_LEASE_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1000)
    throw new RuntimeInputError(
      `TASKWEAVE_LEASE_MS must be a whole number of milliseconds, at least 1000 (it is "${value}").`,
    );
  return ms;
}

/** What the queue worker needs of the runtime. */
export interface WorkerContext {
  store: Store;
  workspace: Workspace;
  model: ResolvedModel;
  settings: RunSettings;
  /** The settings this process queues its goals with (what a task queued here runs with). */
  queuedSettings(goal?: Partial<Pick<RunSettings, 'maxSteps' | 'loop' | 'plan'>>): QueuedSettings;
  /** The model a task queued with another model runs with (resolved as if given by --model). */
  modelFor(settings: QueuedSettings): Promise<ResolvedModel>;
  /** Approval settings, sandbox, and each session's "always" answers. */
  safety: RuntimeSafety;
  /** The MCP servers each run starts (the config's `mcp`). */
  mcpServers: Record<string, McpServerConfig>;
  bus: EventBus;
  /** Something to tell the person watching (not an event: no run owns it). */
  notice(text: string): void;
  /** Registers the control of a run in this process (answers and stops reach it); returns its removal. */
  track(sessionId: string, control: RunControl): () => void;
  /** The user asked this process to stop. */
  readonly stopRequested: boolean;
  /** Each session's background commands (they outlive a run, not the process). */
  background: BackgroundBook;
}

/** How one queue task ended. */
export interface QueueTaskResult {
  sessionId: string;
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  /** The task was cancelled (or its lease lost) while it ran: the worker stopped it. */
  cancelled: boolean;
  /** Another worker took the task over while this one ran it (this one was paused past its lease). */
  leaseLost?: boolean;
  /**
   * The attempt this worker held the task under (its fencing token): closing the task carries it,
   * so a worker that lost the task meanwhile cannot close it.
   */
  attempt?: number;
}

export { outcomeText } from './close-goal-task.js';

/** Everything runAgent needs for one run in a session, and what stops its MCP servers after it. */
async function agentOptions(
  ctx: WorkerContext,
  sessionId: string,
  settings: RunSettings,
  own: { model: ResolvedModel; safety: RunSafety } = {
    model: ctx.model,
    safety: ctx.safety.forSession(sessionId),
  },
): Promise<{ run: Omit<RunAgentOptions, 'goal'>; close: () => Promise<void> }> {
  const control = new RunControl({
    policy: settings.policy,
    inputTimeoutMs: settings.inputTimeoutMs,
  });
  if (ctx.stopRequested) control.stop();
  const { safety } = own;
  // The configured MCP servers start with the run and stop when it ends.
  const mcp =
    Object.keys(ctx.mcpServers).length === 0 || settings.chat
      ? undefined
      : // The MCP SDK is loaded only when a server is configured.
        await (await import('../../tools/mcp/mcp-servers.js')).startMcpServers({
          servers: ctx.mcpServers,
          workspaceRoot: ctx.workspace.root,
        });
  const journal = new Journal({ sessionId, store: ctx.store, bus: ctx.bus });
  const detachBackground = ctx.background.attach(sessionId, journal);
  const run: Omit<RunAgentOptions, 'goal'> = {
    model: own.model,
    workspace: ctx.workspace,
    journal,
    store: ctx.store,
    background: ctx.background.forSession(sessionId),
    control,
    safety: { ...safety, notes: [...(safety.notes ?? []), ...(mcp?.failures ?? []), ...(mcp?.notes ?? [])] },
    // A plain chat turn offers the model no tool at all.
    tools: settings.chat ? [] : mcp ? [...coreTools, ...mcp.tools] : undefined,
    ...(settings.chat ? { chatOnly: true } : {}),
    maxSteps: settings.maxSteps,
    concurrency: settings.concurrency,
    onFailure: settings.onFailure,
    protocol: settings.protocol,
    loop: settings.loop,
    taskTracking: settings.taskTracking,
    ...(settings.budget === undefined
      ? {}
      : { budget: { limit: settings.budget, spentBefore: await sessionSpent(ctx.store, sessionId) } }),
    isolation: {
      mode: settings.isolation ?? DEFAULT_ISOLATION,
      includeUncommitted: settings.includeUncommitted,
      apply: settings.apply,
      worktree: settings.worktree ?? { share: DEFAULT_WORKTREE_SHARE, copy: DEFAULT_WORKTREE_COPY },
      ...(settings.remote === undefined ? {} : { remote: settings.remote }),
    },
  };
  return {
    run,
    close: async () => {
      detachBackground();
      await mcp?.close();
    },
  };
}

/**
 * Runs one claimed task of the queue with the agent, in the task's session (a new one for work
 * added with `taskweave tasks add`, stored on the task at once), renewing the lease while it
 * runs. A task an earlier worker started and did not finish (it died) continues where that
 * worker left off. Cancelling the task from elsewhere stops the run at the next step boundary.
 */
export async function runQueueTask(
  ctx: WorkerContext,
  task: Task,
  owner: string,
  /**
   * `continuing`: the user continues the task (resume, an answer), with this process's settings;
   * `goal`: what the continued run is told instead of the task's goal (an answer the session waited for).
   */
  options: { continuing?: boolean; goal?: string } = {},
): Promise<QueueTaskResult> {
  const { sessions, tasks } = ctx.store;
  // An answer someone gave (on any machine) to what the task's session waited for: the run goes on with it.
  const answered =
    options.goal === undefined && task.sessionId !== null
      ? await takeStoredAnswer(ctx, task.sessionId, owner)
      : undefined;
  const goal = options.goal ?? answered?.goal ?? (task.description || task.title);
  let sessionId = task.sessionId;
  if (sessionId === null) {
    const session = await sessions.createSession({
      title: task.title,
      goal,
      workspace: ctx.workspace.root,
      model: ctx.model.id,
    });
    sessionId = session.id;
    await tasks.attachSession(task.id, sessionId);
  }
  const continuing = options.continuing || task.attempts > 1 || answered !== undefined;
  if (continuing) {
    await cleanUpAfterCrash(ctx);
    const done = await completedRunOf(ctx, task, sessionId);
    if (done)
      return { sessionId, status: 'completed', finalAnswer: done.finalAnswer ?? undefined, cancelled: false };
  }
  let prepared: Awaited<ReturnType<typeof queuedRun>>;
  try {
    // `resume` and an answer to a waiting session are the user's own say, with this process's
    // settings; everything the queue hands out runs with the settings it was queued with.
    prepared = options.continuing
      ? { settings: ctx.settings, model: ctx.model, safety: ctx.safety.forSession(sessionId) }
      : await queuedRun(ctx, task, sessionId);
  } catch (error) {
    // Settings that cannot be honoured here (a model that cannot be built, a stored value that
    // cannot be read): the task is refused, saying why, rather than run with other settings.
    const reason = `not run with other settings than it was queued with: ${errorMessage(error)}`;
    ctx.notice(`■ the task "${task.title}" was ${reason}`);
    return { sessionId, status: 'failed', reason, cancelled: false };
  }
  const { settings } = prepared;
  const { run, close } = await agentOptions(ctx, sessionId, settings, prepared);
  const untrack = ctx.track(sessionId, run.control);
  if (answered?.approval) {
    const { name, preview, decision, reason } = answered.approval;
    run.control.approveAhead({ name, preview }, decision, reason);
  }
  if (continuing) await carryFailureDecisions(ctx.store, sessionId, run.control, owner);
  // The fencing token: the attempt the task is at now that this worker holds it (the object
  // passed in may predate the claim or takeover that counted it).
  const claimed = await tasks.get(task.id);
  const attempt =
    claimed?.status === 'in_progress' && claimed.leaseOwner === owner ? claimed.attempts : undefined;
  // Pushes to a shared repository's remote are fenced like the task's changes in the store.
  if (run.isolation?.remote !== undefined && attempt !== undefined)
    run.isolation.stillHolds = async () => {
      const current = await tasks.get(task.id);
      return (
        current?.status === 'in_progress' && current.leaseOwner === owner && current.attempts === attempt
      );
    };
  let cancelled = false;
  let leaseLost = false;
  let renewedAt = Date.now();
  let watching = false;
  const watch = setInterval(async () => {
    if (watching) return;
    watching = true;
    try {
      const current = await tasks.get(task.id);
      let held =
        current?.status === 'in_progress' &&
        current.leaseOwner === owner &&
        (attempt === undefined || current.attempts === attempt);
      if (held && Date.now() - renewedAt >= RENEW_EVERY_MS) {
        held = await tasks.renewLease(task.id, owner, LEASE_MS, attempt);
        renewedAt = Date.now();
      }
      if (!held && !cancelled) {
        cancelled = true;
        if (current?.status === 'cancelled' || current === undefined) {
          ctx.notice(`■ the task "${task.title}" was cancelled; stopping it at the next step boundary`);
          run.control.stop();
        } else {
          // Another worker took the task over (this process was paused or starved past its
          // lease): it runs there, so it stops here instead of running twice.
          leaseLost = true;
          ctx.notice(
            `■ another worker took over the task "${task.title}" (this process was paused for longer than its ${LEASE_MS / 1000}-s lease); stopping it here so that it does not run twice`,
          );
          run.control.stop('another worker took the task over');
        }
      }
    } catch {
      // The store failed (its file deleted or locked under the run): the run's own next write
      // fails the same way and ends it as failed, with the reason. Thrown here, it would end
      // the process with a stack trace and no final status.
    } finally {
      watching = false;
    }
  }, WATCH_INTERVAL_MS);
  try {
    // attempts counts claims: more than one means an earlier worker took this task and died.
    const result = continuing
      ? await continueSession(ctx, { sessionId, goal, ownTaskId: task.id, run, plan: settings.plan })
      : await runAgent({
          goal,
          history: await loadConversation(sessions, sessionId, null),
          plan: settings.plan,
          ownTaskId: task.id,
          ...run,
        });
    return {
      sessionId,
      status: result.status,
      finalAnswer: result.finalAnswer,
      reason: result.reason,
      cancelled,
      ...(leaseLost ? { leaseLost } : {}),
      ...(attempt === undefined ? {} : { attempt }),
    };
  } catch (error) {
    // An unexpected error must not leave the task in progress for a later worker to run again
    // blindly: it fails, with the error as its reason, and the error goes on to the user. A task
    // another worker took over meanwhile is not this worker's to fail (the token refuses it).
    if ((await tasks.get(task.id))?.status === 'in_progress')
      await tasks
        .fail(
          task.id,
          `taskweave failed: ${errorMessage(error)}`,
          attempt === undefined ? {} : { owner, attempt },
        )
        .catch(() => undefined);
    throw error;
  } finally {
    clearInterval(watch);
    untrack();
    await close();
  }
}

/**
 * The settings, model and safety a queue task runs with: the ones it was queued with (stored on
 * the task), whichever process runs it; this process's own for work queued without any.
 */
async function queuedRun(
  ctx: WorkerContext,
  task: Task,
  sessionId: string,
): Promise<{ settings: RunSettings; model: ResolvedModel; safety: RunSafety }> {
  const queued = decodeQueuedSettings(task.runSettings);
  if (queued === undefined)
    return { settings: ctx.settings, model: ctx.model, safety: ctx.safety.forSession(sessionId) };
  const differences = settingsDifferences(queued, ctx.queuedSettings());
  const model = queued.model === ctx.model.id ? ctx.model : await ctx.modelFor(queued);
  const safety = await ctx.safety.forQueuedRun(sessionId, queued);
  if (differences.length > 0)
    ctx.notice(`▶ "${task.title}" runs with the settings it was queued with: ${differences.join(', ')}`);
  const settings: RunSettings = {
    ...ctx.settings,
    maxSteps: queued.maxSteps,
    loop: queued.loop,
    plan: queued.plan,
    ...(queued.chat ? { chat: true } : {}),
    approval: queued.approval,
    sandbox: queued.sandbox,
    network: queued.network,
  };
  return { settings, model, safety };
}

/**
 * The run that already completed a task, when an earlier worker died after the run ended but
 * before it closed the task: the last run of the task's session started since the task was
 * added, completed, with no unfinished plan left. Its work is done and is not done again.
 */
async function completedRunOf(ctx: WorkerContext, task: Task, sessionId: string) {
  const runs = (await ctx.store.sessions.runs(sessionId)).filter((run) => run.startedAt >= task.createdAt);
  const last = runs.at(-1);
  if (last?.status !== 'completed') return undefined;
  if ((await ctx.store.plans.unfinishedPlans(sessionId)).length > 0) return undefined;
  return last;
}

/** What a worker did. */
export interface DrainSummary {
  completed: number;
  failed: number;
  /** The user stopped the worker: the current task went back to the queue. */
  stopped: boolean;
}

/**
 * Works the queue one task after another, starting with a task already claimed, handing each
 * finished task over to the next in one transaction.
 */
export async function drainQueue(
  ctx: WorkerContext,
  options: {
    owner: string;
    queue: string;
    first: Task;
    announce: (task: Task, index: number) => void;
    /** Only tasks queued after this position are taken (a foreign database's are left). */
    afterSequence?: number;
    /** Stop after this many tasks (closing the last without claiming the next). */
    maxTasks?: number;
  },
): Promise<DrainSummary> {
  const { tasks } = ctx.store;
  const summary: DrainSummary = { completed: 0, failed: 0, stopped: false };
  let task: Task | undefined = options.first;
  let index = 0;
  while (task) {
    index += 1;
    options.announce(task, index);
    const result = await runQueueTask(ctx, task, options.owner);
    const handOff = {
      id: task.id,
      owner: options.owner,
      queue: options.queue,
      leaseMs: LEASE_MS,
      afterSequence: options.afterSequence,
      answers: { store: ctx.store, sessionId: result.sessionId },
    };
    if (ctx.stopRequested) {
      // Stopped: the task goes back to the queue (it runs again later) and the worker ends;
      // one another worker took over meanwhile is left to it (the token refuses the reset).
      if (!result.cancelled)
        await tasks
          .resetToPending(task.id, { owner: options.owner, attempt: result.attempt })
          .catch((error: unknown) => {
            if (!(error instanceof TaskStoreError)) throw error;
          });
      summary.stopped = true;
      return summary;
    }
    if (result.cancelled) {
      task = await tasks.claimNext({
        queue: options.queue,
        owner: options.owner,
        leaseMs: LEASE_MS,
        afterSequence: options.afterSequence,
      });
      continue;
    }
    if (result.status === 'completed') summary.completed += 1;
    else summary.failed += 1;
    if (options.maxTasks !== undefined && index >= options.maxTasks) {
      await closeGoalTask(tasks, handOff, result);
      return summary;
    }
    task = await closeGoalTaskAndClaimNext(tasks, handOff, result);
  }
  return summary;
}

/** The message that continues a simple run the process left unfinished. */
export const CONTINUE_INTERRUPTED =
  '[taskweave] The previous run was interrupted before it finished (the process ended). Continue the request where it left off; files you changed are as you left them.';

/**
 * Continues a session an earlier process left unfinished: its unfinished plan resumes (completed
 * tasks stay done), or else the conversation goes on from where it stopped.
 */
export async function continueSession(
  ctx: WorkerContext,
  options: {
    sessionId: string;
    goal: string;
    ownTaskId?: string;
    run: Omit<RunAgentOptions, 'goal'>;
    plan?: RunSettings['plan'];
  },
): Promise<RunResult> {
  const { sessions, plans } = ctx.store;
  const runs = await sessions.runs(options.sessionId);
  const interrupted = runs.filter((run) => run.status === 'running');
  // Read before the interrupted runs are closed: it looks at how they ended.
  const awaitingAnswer =
    interrupted.length > 0
      ? await planAwaitingAnswer(ctx.store, { sessionId: options.sessionId, runs })
      : undefined;
  // The processes of these runs are gone; their records say so before the new run starts.
  for (const run of interrupted) {
    await sessions.finishRun({
      id: run.id,
      status: 'stopped',
      steps: run.steps,
      inputTokens: run.inputTokens,
      outputTokens: run.outputTokens,
    });
  }
  const [plan] = await plans.unfinishedPlans(options.sessionId);
  // A plan with every task done resumes at its final answer: nothing is planned or run again.
  const planId = plan?.id ?? awaitingAnswer;
  if (planId)
    return resumePlan(
      { ...options.run, ownTaskId: options.ownTaskId },
      await loadStoredPlan(ctx.store, planId),
    );
  return runAgent({
    goal: interrupted.length > 0 ? CONTINUE_INTERRUPTED : options.goal,
    // Shown and recorded under the goal it continues, not under taskweave's message to the model.
    ...(interrupted.length > 0 ? { continuesGoal: interrupted.at(-1)?.goal ?? options.goal } : {}),
    history: await loadConversation(sessions, options.sessionId, null),
    plan: options.plan ?? ctx.settings.plan,
    ownTaskId: options.ownTaskId,
    ...options.run,
  });
}

/**
 * Puts back in the queue the in-progress tasks of workers of this machine whose process is gone
 * (killed, crashed), without waiting for their leases to expire. Returns how many went back.
 */
export async function releaseDeadWorkers(ctx: WorkerContext, queue: string): Promise<number> {
  const { tasks } = ctx.store;
  let released = (await tasks.releaseExpiredLeases()).length;
  for (const task of await tasks.listActive(queue)) {
    if (task.status === 'in_progress' && task.leaseOwner !== null && isDeadLocalWorker(task.leaseOwner)) {
      await tasks.resetToPending(task.id);
      released += 1;
    }
  }
  return released;
}

/** Starts a run in a session outside the queue (resume of a session with no queue task). */
export async function sessionRun(ctx: WorkerContext, sessionId: string) {
  const { run, close } = await agentOptions(ctx, sessionId, ctx.settings);
  const untrack = ctx.track(sessionId, run.control);
  return {
    run,
    end: async () => {
      untrack();
      await close();
    },
  };
}
