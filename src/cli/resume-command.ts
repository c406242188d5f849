import type { Command } from 'commander';
import type { Session } from '../store/schema.js';
import { type AgentCliOptions, AgentRuntime, addAgentOptions } from './agent-runtime.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { resolveIdPrefix, SESSION_IDS } from './id-prefix.js';
import { continueSession, LEASE_MS, outcomeText, runQueueTask } from './queue-worker.js';
import { UsageError } from './usage-error.js';
import { isDeadLocalWorker, newWorkerId } from './worker-identity.js';

interface ResumeCliOptions extends AgentCliOptions {
  session?: string;
}

/** Adds `taskweave resume`: continues an interrupted run or plan in the workspace. */
export function addResumeCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('resume')
      .description(
        'continue the interrupted run or plan of the workspace: completed tasks stay done, the interrupted task goes on, pending tasks run',
      ),
  )
    .option(
      '--session <id>',
      'the session to continue (id, unique prefix or "last"); default: the latest with unfinished work',
    )
    .action(async (options: ResumeCliOptions) => {
      setExitCode(await resumeFromCli(options));
    });
}

async function resumeFromCli(options: ResumeCliOptions): Promise<number> {
  const runtime = await AgentRuntime.open(options);
  try {
    const { sessions, tasks, db } = runtime.store;
    let session: Session | undefined;
    if (options.session === 'last') session = sessions.lastSession();
    else if (options.session)
      session = sessions.getSession(resolveIdPrefix(db, SESSION_IDS, options.session));
    else session = sessions.latestSessionWithUnfinishedWork();
    if (!session) {
      if (options.session) throw new UsageError('There is no session to resume in this workspace yet.');
      runtime.say('Nothing to resume: no run or plan in this workspace was left unfinished.');
      return EXIT.completed;
    }
    const unfinishedPlan = tasks.unfinishedPlans(session.id).length > 0;
    const interrupted = sessions.runs(session.id).some((run) => run.status === 'running');
    if (!unfinishedPlan && !interrupted) {
      runtime.say(
        `Nothing to resume in session ${session.id}: its last run ended and it has no unfinished plan.`,
      );
      return EXIT.completed;
    }
    // The goal's queue task: taken over from its worker, which must be gone.
    const owner = newWorkerId();
    const goalTask = tasks
      .listAll({ sessionId: session.id, status: 'in_progress' })
      .find((task) => task.planId === null);
    if (goalTask) {
      const expired = (goalTask.leaseExpiresAt ?? 0) <= Date.now();
      if (!expired && !isDeadLocalWorker(goalTask.leaseOwner)) {
        throw new UsageError(
          `Session ${session.id} is being worked on by a live process (${goalTask.leaseOwner}); it is not resumed twice. Stop that process first, or wait for it to finish.`,
        );
      }
      if (!tasks.takeOver(goalTask.id, { from: goalTask.leaseOwner, owner, leaseMs: LEASE_MS })) {
        throw new UsageError(`Session ${session.id} was just taken over by another process.`);
      }
      const result = await runQueueTask(runtime, goalTask, owner, { continuing: true });
      if (!result.cancelled && !runtime.stopRequested) {
        const text = outcomeText(result);
        if (result.status === 'completed') tasks.complete(goalTask.id, text, { owner });
        else tasks.fail(goalTask.id, text, { owner });
      }
      return result.cancelled ? exitCodeFor('stopped') : exitCodeFor(result.status);
    }
    const result = await continueSession(runtime, {
      sessionId: session.id,
      goal: session.goal,
      agentOptions: runtime.agentOptions(session.id),
    });
    return exitCodeFor(result.status);
  } finally {
    runtime.close();
  }
}
