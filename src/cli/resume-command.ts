import { modelMessageSchema } from 'ai';
import type { Command } from 'commander';
import { type RunResult, resumePlan, runAgent } from '../agent/run-agent.js';
import { loadStoredPlan } from '../agent/stored-plan.js';
import type { Session } from '../store/schema.js';
import { type AgentCliOptions, AgentRuntime, addAgentOptions } from './agent-runtime.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { resolveIdPrefix, SESSION_IDS } from './id-prefix.js';
import { UsageError } from './usage-error.js';

interface ResumeCliOptions extends AgentCliOptions {
  session?: string;
}

/** The message that continues a simple run the process left unfinished. */
export const CONTINUE_INTERRUPTED =
  '[taskweave] The previous run was interrupted before it finished (the process ended). Continue the request where it left off; files you changed are as you left them.';

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
    const interrupted = sessions.runs(session.id).filter((run) => run.status === 'running');
    // The processes of these runs are gone; their records say so before the new run starts.
    for (const run of interrupted) {
      sessions.finishRun({
        id: run.id,
        status: 'stopped',
        steps: run.steps,
        inputTokens: run.inputTokens,
        outputTokens: run.outputTokens,
      });
    }
    // The queue task of the interrupted goal (its worker died) ends with the resumed run.
    const goalTasks = tasks
      .listAll({ sessionId: session.id, status: 'in_progress' })
      .filter((task) => task.planId === null);
    const settle = (result: RunResult) => {
      for (const task of goalTasks) {
        if (result.status === 'completed') tasks.complete(task.id, result.finalAnswer ?? 'completed');
        else if (result.status !== 'stopped') tasks.fail(task.id, `${result.status}: ${result.reason ?? ''}`);
      }
      return exitCodeFor(result.status);
    };
    const [plan] = tasks.unfinishedPlans(session.id);
    if (plan) {
      const stored = loadStoredPlan(runtime.store, plan.id);
      return settle(await resumePlan(runtime.agentOptions(session.id), stored));
    }
    if (interrupted.length === 0) {
      runtime.say(
        `Nothing to resume in session ${session.id}: its last run ended and it has no unfinished plan.`,
      );
      return EXIT.completed;
    }
    const history = sessions
      .messages(session.id, { taskId: null })
      .map((message) => modelMessageSchema.parse({ role: message.role, content: message.content }));
    return settle(
      await runAgent({
        goal: CONTINUE_INTERRUPTED,
        history,
        plan: options.plan,
        ...runtime.agentOptions(session.id),
      }),
    );
  } finally {
    runtime.close();
  }
}
