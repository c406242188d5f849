import { modelMessageSchema } from 'ai';
import type { Command } from 'commander';
import { runAgent } from '../agent/run-agent.js';
import type { SessionStore } from '../store/session-store.js';
import { type AgentCliOptions, AgentRuntime, addAgentOptions } from './agent-runtime.js';
import { exitCodeFor } from './exit-codes.js';
import { resolveIdPrefix, SESSION_IDS } from './id-prefix.js';
import type { OpenedStore } from './store-options.js';
import { UsageError } from './usage-error.js';

/** Options of `taskweave run`, as commander parses them. */
export interface RunCliOptions extends AgentCliOptions {
  resume?: string;
}

const MAX_TITLE_CHARS = 80;

/** Adds `taskweave run` to the program. */
export function addRunCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('run')
      .description('work a goal through with tools until it is done, showing each step')
      .argument('<goal...>', 'what taskweave should do, in plain words'),
  )
    .option('--resume <session>', 'continue a session with its history: its id, a unique prefix, or "last"')
    .action(async (goalWords: string[], options: RunCliOptions) => {
      setExitCode(await runFromCli(goalWords.join(' ').trim(), options));
    });
}

async function runFromCli(goal: string, options: RunCliOptions): Promise<number> {
  if (goal === '') throw new UsageError('The goal is empty: say what taskweave should do.');
  const runtime = await AgentRuntime.open(options);
  try {
    const { sessions } = runtime.store;
    const sessionId = options.resume
      ? resolveSession(runtime.store, options.resume)
      : sessions.createSession({
          title: goal.split('\n')[0]!.slice(0, MAX_TITLE_CHARS),
          goal,
          workspace: runtime.workspace.root,
          model: runtime.model.id,
        }).id;
    const result = await runAgent({
      goal,
      history: options.resume ? topLevelHistory(sessions, sessionId) : [],
      plan: options.plan,
      ...runtime.agentOptions(sessionId),
    });
    return exitCodeFor(result.status);
  } finally {
    runtime.close();
  }
}

/** The session `--resume` names: "last", a full id or a unique prefix. */
function resolveSession(store: OpenedStore, reference: string): string {
  if (reference === 'last') {
    const last = store.sessions.lastSession();
    if (!last) throw new UsageError('There is no session to resume in this workspace yet.');
    return last.id;
  }
  return resolveIdPrefix(store.db, SESSION_IDS, reference);
}

/** The session's top-level conversation (without the tasks' own conversations). */
function topLevelHistory(sessions: SessionStore, sessionId: string) {
  return sessions
    .messages(sessionId, { taskId: null })
    .map((message) => modelMessageSchema.parse({ role: message.role, content: message.content }));
}
