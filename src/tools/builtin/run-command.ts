import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { withoutTaskweaveSecrets } from '../../util/command-environment.js';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { LineProgress } from '../process/line-progress.js';
import { type CommandEnd, type CommandOutcome, runShellCommand } from '../process/run-shell-command.js';
import { sandboxLaunch } from '../sandbox/sandbox.js';
import { sandboxNotes } from '../sandbox/sandbox-notes.js';
import type { ToolContext, ToolResult } from '../types.js';
import { gitControlNote, undoGitControlChanges } from '../workspace/git-control-guard.js';
import { snapshotGitControls } from '../workspace/git-control-snapshot.js';

/** How long a command may run when the call does not say. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** The longest a command may be given. */
export const MAX_COMMAND_TIMEOUT_MS = 600_000;
/**
 * Each of stdout and stderr is cut to this many characters (head and tail kept); both together
 * stay under the wrapper's limit, so the tool, not the wrapper, decides what is elided.
 */
export const MAX_STREAM_OUTPUT_CHARS = 12_000;

/**
 * Added to the environment so that tools behave as in CI: no prompts, no pagers, no colours.
 * Nobody can type into a command the agent runs (stdin is closed).
 */
const NON_INTERACTIVE_ENV = {
  TASKWEAVE: '1',
  CI: 'true',
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  DEBIAN_FRONTEND: 'noninteractive',
  NO_COLOR: '1',
};

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    command: z.string().min(1).describe('The command line, run with `bash -c`.'),
    working_dir: z.string().optional().describe('Folder to run in (default: the workspace root).'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(MAX_COMMAND_TIMEOUT_MS)
      .optional()
      .describe(
        `Time limit in ms (default ${DEFAULT_COMMAND_TIMEOUT_MS}, at most ${MAX_COMMAND_TIMEOUT_MS}).`,
      ),
    continue_on_error: z
      .boolean()
      .optional()
      .describe('A non-zero exit code is a normal result (grep, diff, test).'),
    background: z
      .boolean()
      .optional()
      .describe('Return at once with its id (a dev server, a watcher); you are told when it ends.'),
  }),
);

/** run_command: runs a shell command in the workspace and reports exit code, stdout and stderr. */
export const runCommandTool = defineTool({
  name: 'run_command',
  description:
    'Runs `bash -c <command>` in the workspace; returns the exit code, stdout and stderr (long output cut in the middle). Non-interactive (stdin closed, CI=true); killed with its children on timeout or stop.',
  whenToUse:
    'Build, test, lint, install, git, scripts, listing folders; a dev server or watcher with background.',
  whenNotToUse:
    'Reading, searching or changing files (cat >, sed -i and heredocs skip the read-before-edit check); programs waiting for keyboard input (pass --yes).',
  parameters: builtSchema('run_command', parameters),
  readOnly: false,
  changes: 'command',
  async preview(args) {
    return args.working_dir === undefined ? args.command : `(in ${args.working_dir}) ${args.command}`;
  },
  async execute(args, ctx) {
    if (args.background) return startInBackground(args, ctx);
    const timeoutMs = args.timeout_ms ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const cwd =
      args.working_dir === undefined ? ctx.workspace.root : await ctx.workspace.resolve(args.working_dir);
    const folder = await stat(cwd).catch(() => null);
    if (folder === null || !folder.isDirectory()) {
      const shown = ctx.workspace.relative(cwd);
      return {
        output: `The working_dir ${shown} ${folder === null ? 'does not exist' : 'is not a folder'}. Give a folder inside the workspace, or leave working_dir out to run in the workspace root.`,
        display: 'bad working_dir',
        isError: true,
      };
    }
    const stdoutProgress = new LineProgress(ctx.progress);
    const stderrProgress = new LineProgress(ctx.progress);
    const { sandbox } = ctx;
    const confined = sandbox.kind === 'bwrap';
    let mark: string | undefined;
    // A command that can write the workspace may plant git config or hooks for the user's next git.
    const gitBefore =
      confined && sandbox.mode === 'workspace-write'
        ? await snapshotGitControls(ctx.workspace.root)
        : undefined;
    const launch = confined
      ? sandboxLaunch({ sandbox, workspaceRoot: ctx.workspace.root, cwd, env: commandEnvironment() })
      : undefined;
    const outcome = await runShellCommand({
      command: args.command,
      cwd,
      env: launch?.env ?? commandEnvironment(),
      wrapper:
        launch && confined ? { program: sandbox.bwrap, args: launch.args, input: launch.input } : undefined,
      timeoutMs,
      signal: ctx.signal,
      maxOutputCharsPerStream: MAX_STREAM_OUTPUT_CHARS,
      onStdout: (chunk) => stdoutProgress.push(chunk),
      onStderr: (chunk) => stderrProgress.push(chunk),
      onStart: ({ pid, mark: started }) => {
        mark = started;
        ctx.commands?.started({ mark: started, pgid: pid, command: args.command });
      },
    }).finally(() => {
      stdoutProgress.flush();
      stderrProgress.flush();
      if (mark !== undefined) ctx.commands?.ended(mark);
    });
    const result = report(outcome, { timeoutMs, continueOnError: args.continue_on_error ?? false });
    const sandboxed = result.isError && confined ? sandboxNotes(outcome, sandbox) : [];
    const notes = sandboxed.map((note) => note.forModel);
    for (const note of sandboxed) result.display = `${result.display ?? ''} · ${note.forUser}`;
    const undone = gitBefore ? await undoGitControlChanges(ctx.workspace.root, gitBefore) : [];
    if (undone.length > 0) {
      notes.push(gitControlNote(undone));
      result.display = `${result.display ?? ''} · git config undone`;
    }
    return notes.length === 0
      ? result
      : { ...result, output: `${result.output}\n${COMMAND_NOTES_HEADER}${notes.join('\n')}` };
  },
});

/** Starts the command in the session's background commands, confined as a foreground one is. */
async function startInBackground(args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.background === undefined) {
    return {
      output: 'Background commands are not available here: run the command without background.',
      display: 'no background commands here',
      isError: true,
    };
  }
  const cwd =
    args.working_dir === undefined ? ctx.workspace.root : await ctx.workspace.resolve(args.working_dir);
  const folder = await stat(cwd).catch(() => null);
  if (folder === null || !folder.isDirectory()) {
    return {
      output: `The working_dir ${ctx.workspace.relative(cwd)} is not a folder of the workspace. Give a folder inside the workspace, or leave working_dir out.`,
      display: 'bad working_dir',
      isError: true,
    };
  }
  const { sandbox } = ctx;
  // As for a foreground command: git config or hooks it plants are undone, here once it ends.
  const gitBefore =
    sandbox.kind === 'bwrap' && sandbox.mode === 'workspace-write'
      ? await snapshotGitControls(ctx.workspace.root)
      : undefined;
  const root = ctx.workspace.root;
  const launch =
    sandbox.kind === 'bwrap'
      ? sandboxLaunch({ sandbox, workspaceRoot: ctx.workspace.root, cwd, env: commandEnvironment() })
      : undefined;
  const started = ctx.background.start({
    command: args.command,
    cwd,
    env: launch?.env ?? commandEnvironment(),
    wrapper:
      launch && sandbox.kind === 'bwrap'
        ? { program: sandbox.bwrap, args: launch.args, input: launch.input }
        : undefined,
    runId: ctx.runId ?? '',
    callId: ctx.callId,
    taskId: ctx.taskId,
    recorder: ctx.commands,
    afterEnd: async () => {
      if (gitBefore === undefined) return [];
      const undone = await undoGitControlChanges(root, gitBefore);
      return undone.length === 0 ? [] : [gitControlNote(undone)];
    },
  });
  if ('refused' in started)
    return { output: started.refused, display: 'too many background commands', isError: true };
  return {
    output: `Started in the background as ${started.id}. read_background_output with id ${started.id} gives its new output and whether it still runs; stop_background_command ends it. You will be told when it ends. Files it changes are not part of this step's checkpoint.`,
    display: `background ${started.id}`,
    isError: false,
  };
}

/** Where taskweave's own notes start after a command's output (so no one reads them as stderr). */
export const COMMAND_NOTES_HEADER = '--- taskweave ---\n';

/**
 * Variables dropped for the output's sake. taskweave's own secrets (provider keys, the store) are
 * dropped for every command: util/command-environment.ts.
 */
export const WITHHELD_ENV = new Set([
  'FORCE_COLOR', // would override NO_COLOR in most tools (and Node warns when both are set)
]);

/**
 * The environment a command starts from: taskweave's, less its secrets (their output goes to the
 * model and the event log, and a command the model was talked into must not be able to send them
 * anywhere), less FORCE_COLOR, plus the non-interactive settings.
 */
function commandEnvironment(): NodeJS.ProcessEnv {
  const inherited = Object.entries(withoutTaskweaveSecrets(process.env)).filter(
    ([name]) => !WITHHELD_ENV.has(name),
  );
  return { ...Object.fromEntries(inherited), ...NON_INTERACTIVE_ENV };
}

function report(
  outcome: CommandOutcome,
  options: { timeoutMs: number; continueOnError: boolean },
): ToolResult {
  const { end } = outcome;
  const streams = `--- stdout ---\n${outcome.stdout || '(empty)'}\n--- stderr ---\n${outcome.stderr || '(empty)'}`;
  const duration = durationText(outcome.durationMs);
  const status = statusLine(end, options.timeoutMs);
  const isError = !(end.kind === 'exited' && (end.exitCode === 0 || options.continueOnError));
  return {
    output: `${status}\nDuration: ${duration}\n${streams}`,
    display: ranToTheEnd(end)
      ? `${shortStatus(end, options.timeoutMs)} · ${duration}`
      : shortStatus(end, options.timeoutMs),
    isError,
  };
}

function statusLine(end: CommandEnd, timeoutMs: number): string {
  switch (end.kind) {
    case 'exited':
      return `Exit code: ${end.exitCode}`;
    case 'signaled':
      return `Killed by signal ${end.signal} (the command did not exit by itself).`;
    case 'timed_out':
      return (
        `Timed out after ${seconds(timeoutMs)}: the command and every process it started were killed. ` +
        `Give a larger timeout_ms (at most ${MAX_COMMAND_TIMEOUT_MS}) if it needs longer, or run a ` +
        'long-lived process in the background with its output redirected to a file.'
      );
    case 'stopped':
      return 'Stopped by the user: the command and every process it started were ended.';
  }
}

function shortStatus(end: CommandEnd, timeoutMs: number): string {
  switch (end.kind) {
    case 'exited':
      return `exit ${end.exitCode}`;
    case 'signaled':
      return `killed by ${end.signal}`;
    case 'timed_out':
      return `timed out after ${seconds(timeoutMs)}`;
    case 'stopped':
      return 'stopped by the user';
  }
}

function ranToTheEnd(end: CommandEnd): boolean {
  return end.kind === 'exited' || end.kind === 'signaled';
}

/** A time limit: `120s`, `0.5s`. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/** How long a command took: `35ms`, `0.4s`, `12.0s`. */
function durationText(ms: number): string {
  return ms < 100 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
