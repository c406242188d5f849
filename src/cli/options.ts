import { type Command, Option } from 'commander';
import type { Ablation } from '../eval/ablation.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  DEFAULT_INPUT_TIMEOUT_MS,
  DEFAULT_MAX_STEPS,
  DEFAULT_PLAN_CONCURRENCY,
  ISOLATION_MODES,
  type IsolationMode,
  SANDBOX_MODES,
  type SandboxMode,
} from '../runtime/defaults.js';
import type { RepositoryPlace } from '../runtime/repositories.js';
import { parseDollars, parseHttpUrl, parsePositiveInt } from './usage-error.js';

/*
 * The options of the commands, defined without loading what runs them: `taskweave --help`
 * imports this file and commander only.
 */

/** The options every command over the store takes, as commander parses them. */
export interface StoreCliOptions {
  /** The workspace folder; it must exist. */
  cwd: string;
  /** The database file; `<workspace>/.taskweave/taskweave.db` when not given. */
  db?: string;
  /** `--store <url>`: a shared store (postgres://…) instead of the SQLite file. */
  store?: string;
}

/** The options of every command that runs the agent (run, resume, work), as commander parses them. */
export interface AgentCliOptions extends StoreCliOptions {
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  /** `--budget <dollars>`: what a session may spend. */
  budget?: number;
  json?: boolean;
  nonInteractive?: boolean;
  inputTimeout?: number;
  plan: 'auto' | 'always' | 'never';
  yes?: boolean;
  concurrency?: number;
  /** `ask`: wait for a decision given on any server or terminal sharing the store. */
  onFailure: 'abort' | 'skip' | 'ask';
  protocol: 'native' | 'json';
  loop: 'react' | 'roa';
  approval?: ApprovalMode;
  sandbox?: SandboxMode;
  network?: boolean;
  /** false with `--no-lsp`: no language servers (diagnostics after changes, code_navigation). */
  lsp?: boolean;
  isolation?: IsolationMode;
  includeUncommitted?: boolean;
  /** `--from-head`: the goal branch starts at HEAD, leaving uncommitted changes out. */
  fromHead?: boolean;
  /** `--apply` / `--no-apply`; undefined when neither was given (the config's `apply`, else on). */
  apply?: boolean;
  verbose?: boolean;
  /** `--trust-db` (work, serve): make a database created for another folder this workspace's. */
  trustDb?: boolean;
  /** `--allow-queued-scripts`: run goals queued with a script model other than this process's own. */
  allowQueuedScripts?: boolean;
  /**
   * Not a flag: the git remote's name in taskweave's clone when `--repo` made the workspace that
   * clone (goal branches are fetched from it and pushed to it).
   */
  remote?: RepositoryPlace['remote'];
}

/** Options of `taskweave run`, as commander parses them. */
export interface RunCliOptions extends AgentCliOptions {
  resume?: string;
  /** `--image <file>` (repeatable): images for the model with the goal. */
  image?: string[];
  interrupt?: boolean;
  /** false with `--no-wait`: a request queued behind a running task only stays queued. */
  wait: boolean;
  /** `--repo <remote>`: queue the goal in the repository's queue of the shared store, for its workers. */
  repo?: string;
}

/** Options of `taskweave work`, as commander parses them. */
export interface WorkCliOptions extends AgentCliOptions {
  queue: string;
  watch?: boolean;
  /** `--repo <remote>` (repeatable): work these repositories' queues of the shared store, each in this machine's clone of it. */
  repo?: string[];
  /** `--clones <folder>`: where the clones of `--repo` go. */
  clones?: string;
}

/** Options of `taskweave serve`, as commander parses them (--json and --non-interactive do not apply). */
export interface ServeCliOptions extends Omit<AgentCliOptions, 'json' | 'nonInteractive'> {
  host: string;
  port: number;
  /** `--no-work` makes it false: the server leaves the queue to workers. */
  work: boolean;
}

/** Options of `taskweave acp`, as commander parses them (--json and --non-interactive do not apply). */
export type AcpCliOptions = Omit<AgentCliOptions, 'json' | 'nonInteractive'>;

/** Options of `taskweave resume`, as commander parses them. */
export interface ResumeCliOptions extends AgentCliOptions {
  session?: string;
  /** The answer to the question the session waits for. */
  answer?: string;
}

/** Options of `taskweave eval`, as commander parses them. */
export interface EvalCliOptions {
  cwd: string;
  model: string[];
  baseUrl?: string;
  scenario: string[];
  repeat: number;
  concurrency: number;
  ablation: Ablation[];
  out?: string;
  json?: boolean;
  compare?: string[];
  list?: boolean;
  keep?: boolean;
  protocol: 'native' | 'json';
  loop: 'react' | 'roa';
  /** Which suite: taskweave's scenarios, the Aider polyglot benchmark or Web-Bench at `path`. */
  suite: 'scenarios' | 'polyglot' | 'web-bench';
  path?: string;
  language: string[];
  exercise: string[];
  /** Web-Bench projects to run. */
  project: string[];
  /** Web-Bench: only the first n tasks of each project. */
  tasks?: number;
  limit?: number;
  tries: 1 | 2;
}

/** Adds `-C, --cwd <dir>`, `--db <file>` and `--store <url>` to a command. */
export function addStoreOptions(command: Command): Command {
  return (
    command
      .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
      .option('--db <file>', 'the database file (default <workspace>/.taskweave/taskweave.db)')
      // No default shown: $TASKWEAVE_STORE may hold a password.
      .option(
        '--store <url>',
        'a shared store, postgres://user:password@host/db (also $TASKWEAVE_STORE or "store" in your config; default the SQLite file)',
      )
  );
}

/** Adds the workspace, store, model and run options and the terminal's output options to a command. */
export function addAgentOptions(command: Command): Command {
  return addRunOptions(command)
    .option('--json', 'print the event stream, one JSON object per line (implies --non-interactive)')
    .option('-v, --verbose', "show every line of commands' output and whole diffs")
    .option('--non-interactive', 'never ask on the terminal; a question ends the run with exit code 4');
}

/** Adds the workspace, store, model and run options to a command (every command that runs the agent). */
export function addRunOptions(command: Command): Command {
  return addStoreOptions(command)
    .option(
      '-m, --model <provider:model>',
      'the model, e.g. openai:gpt-4.1 or script:examples/fix-build.json',
    )
    .option(
      '--base-url <url>',
      'the API base URL (openai-compatible servers: vLLM, LM Studio, llama.cpp…)',
      parseHttpUrl,
    )
    .option(
      '--max-steps <n>',
      `the most model steps before a run ends (default ${DEFAULT_MAX_STEPS})`,
      parsePositiveInt,
    )
    .option(
      '--budget <dollars>',
      "stop a run at its next step once its session has cost this many US dollars (default: the config's budget.session)",
      parseDollars,
    )
    .option(
      '--input-timeout <seconds>',
      `how long a question waits for an answer (default ${DEFAULT_INPUT_TIMEOUT_MS / 1000})`,
      parsePositiveInt,
    )
    .addOption(
      new Option(
        '--plan <mode>',
        'plan multi-step goals as a task graph: auto (the model decides), always, never',
      )
        .choices(['auto', 'always', 'never'])
        .default('auto'),
    )
    .option('-y, --yes', 'approve plans without asking')
    .option(
      '--concurrency <n>',
      `the most plan tasks running at once (default ${DEFAULT_PLAN_CONCURRENCY})`,
      parsePositiveInt,
    )
    .addOption(
      new Option(
        '--on-failure <policy>',
        'when a task fails and no one can be asked here: abort the plan, skip the task, or ask (wait for a decision given on a server sharing the store)',
      )
        .choices(['abort', 'skip', 'ask'])
        .default('abort'),
    )
    .addOption(
      new Option(
        '--protocol <protocol>',
        'how the model calls tools: native tool calling, or a JSON reply format',
      )
        .choices(['native', 'json'])
        .default('native'),
    )
    .addOption(
      new Option(
        '--loop <loop>',
        'how each step runs: react (tool calls, then the next step) or roa (reason → act → observe)',
      )
        .choices(['react', 'roa'])
        .default('react'),
    )
    .addOption(
      new Option(
        '--approval <mode>',
        'when tool calls are asked: ask (commands and file changes), edits (file changes run, commands are asked), auto (everything runs, commands in the sandbox), plan-only (read-only tools only) (default: the config, else ask)',
      ).choices([...APPROVAL_MODES]),
    )
    .addOption(
      new Option(
        '--sandbox <mode>',
        'how commands are confined (bubblewrap): workspace-write, read-only, off (default: the config, else workspace-write)',
      ).choices([...SANDBOX_MODES]),
    )
    .option('--network', 'let sandboxed commands use the network (package installs need it)')
    .option(
      '--no-lsp',
      'start no language servers: no diagnostics after file changes, no code_navigation (config: lsp false)',
    )
    .addOption(
      new Option(
        '--isolation <mode>',
        'where plan tasks work: worktree (a git worktree per task, merged back when its check passes), shared (one checkout), auto (worktrees when tasks can run at once in a git repository with a commit) (default: the config, else auto)',
      ).choices([...ISOLATION_MODES]),
    )
    .option(
      '--from-head',
      'start the goal branch at HEAD, leaving your uncommitted changes out (worktrees; default: the files as they are on disk)',
    )
    .addOption(
      new Option(
        '--include-uncommitted',
        'the default: the goal branch starts with the files as they are on disk',
      ).hideHelp(),
    )
    .option(
      '--apply',
      "land a completed goal's change in your working tree, uncommitted (worktrees; the default)",
    )
    .option(
      '--no-apply',
      "keep a completed goal's change on its branch taskweave/<goal> (config: apply false)",
    )
    .option(
      '--allow-queued-scripts',
      "run goals queued by others with a script: model other than this process's own (tests and demos: a script calls tools as the model)",
    );
}
