import type { z } from 'zod';
import type { TakenImage } from '../util/image-intake.js';
import type { ChangeKind } from './approval.js';
import type { BackgroundCommands } from './background/background-commands.js';
import type { ControlEffect } from './control-effect.js';
import type { FileTracker } from './file-tracker.js';
import type { FileDiagnostic } from './lsp/diagnostics.js';
import type { LanguageServers } from './lsp/language-servers.js';
import type { CommandSandbox } from './sandbox/sandbox.js';
import type { WebAccess } from './web/web-access.js';
import type { Workspace } from './workspace/workspace.js';

/** What the user said when a tool asked, or why nobody could answer. */
export type InputReply =
  | { status: 'answered'; answer: string }
  | { status: 'timeout' }
  /** The user stopped the run while the question was open. */
  | { status: 'stopped' }
  /** No one can answer (non-interactive run): the run ends with status needs_input. */
  | { status: 'unavailable' };

/** The part of the run's control a tool may use: asking the user. */
export interface ToolControl {
  /** `signal` ends the question when the asking task is stopped. */
  requestInput(question: string, signal?: AbortSignal): Promise<InputReply>;
}

/** A focused model call a tool may make (analyze_output); phase "analyze". */
export interface ToolModel {
  complete(request: { system?: string; prompt: string; signal?: AbortSignal }): Promise<string>;
}

/** Everything a tool may touch while it runs. */
export interface ToolContext {
  workspace: Workspace;
  /** Aborted when the user stops the run; long work (child processes) must end on it. */
  signal: AbortSignal;
  control: ToolControl;
  model: ToolModel;
  /** Per-run record of files read, for the read-before-edit rule. */
  files: FileTracker;
  /** Progress lines for the UI while a long tool runs. */
  progress: (message: string) => void;
  callId: string;
  /**
   * The step of the run this call belongs to: the one its reply was for, not the run's step
   * counter (parallel plan tasks move that while this call runs).
   */
  step: number;
  /** How run_command confines its commands (bubblewrap, or none). */
  sandbox: CommandSandbox;
  /** Where run_command records the commands it is running (for a resume after a kill); optional. */
  commands?: CommandRecorder;
  /** The run this call belongs to, and the plan task (background commands' events carry them). */
  runId?: string;
  taskId?: string;
  /** The session's background commands (run_command `background: true`); absent where none may run. */
  background?: BackgroundCommands;
  /** The run's language servers: diagnostics after file changes, code navigation; absent when off. */
  languageServers?: LanguageServers;
  /** What web_fetch may reach beyond public addresses (the user's config); public addresses only when absent. */
  web?: WebAccess;
  /**
   * Whether the run's model sees images: read_file then gives it an image file's image; without
   * it (left out too), read_file says the model cannot see images.
   */
  vision?: boolean;
}

/**
 * The state of a run that decides which tools a step offers the model: a tool that only makes
 * sense in some state (reading a background command) is offered once that state holds, so that
 * a request does not carry definitions the model cannot use yet.
 */
export interface ToolOfferState {
  /** The session's background commands; absent where none may run. */
  background?: BackgroundCommands;
  /** The run's language servers (code_navigation is offered once one runs); absent when off. */
  languageServers?: LanguageServers;
}

/** Records running commands, so that a later process can end those a killed one left running. */
export interface CommandRecorder {
  /** A command started: its process group and the mark its processes carry. */
  started(command: { mark: string; pgid: number; command: string; backgroundId?: string }): void;
  /** The command ended (its processes are gone, or being killed). */
  ended(mark: string): void;
}

/**
 * What a tool returns: `output` is for the model, `display` (optional) for people, and `effect`
 * (control tools only) what the call means for the run.
 */
export interface ToolResult {
  output: string;
  display?: string;
  isError: boolean;
  /** The problems a file change introduced, as the language server reports them (write_file, edit_file). */
  diagnostics?: FileDiagnostic[];
  effect?: ControlEffect;
  /** An image for the model with `output` (read_file of an image file), already through the image intake. */
  image?: TakenImage;
}

/** What `defineTool` is given. */
export interface ToolSpec<Params extends z.ZodType> {
  name: string;
  /** What the tool does, in one or two sentences. */
  description: string;
  whenToUse: string;
  whenNotToUse: string;
  parameters: Params;
  /** Read-only tools of one reply run together; the others run one at a time. */
  readOnly: boolean;
  /** What a call may change, for the approval rules; `none` when left out. */
  changes?: ChangeKind;
  /**
   * Whether the model is offered the tool in this state (each step computes its tool set from
   * the run's state); always when left out. A tool not offered still runs when it is called: the
   * model may have been offered it before.
   */
  offeredWhen?(state: ToolOfferState): boolean;
  /** What the user is shown when the call is asked: the command, or the diff of a file change. */
  preview?(args: z.infer<Params>, ctx: ToolContext): Promise<string>;
  execute(args: z.infer<Params>, ctx: ToolContext): Promise<ToolResult>;
}

/** A ready tool: validation, error conversion, timing and truncation are built in. */
export interface Tool {
  name: string;
  /** The model-facing description, with when to use and when not to. */
  description: string;
  parameters: z.ZodType;
  readOnly: boolean;
  /** What a call may change, for the approval rules. */
  changes: ChangeKind;
  /** Whether the model is offered the tool in this state; always when left out (ToolSpec). */
  offeredWhen?(state: ToolOfferState): boolean;
  /**
   * The preview of a call for its approval (the command, the diff); undefined when the
   * arguments are invalid (the call then fails without being asked). Never throws.
   */
  preview(rawArgs: unknown, ctx: ToolContext): Promise<string | undefined>;
  /**
   * The parameters as JSON Schema, when the tool was given one (MCP tools); the model is shown
   * it as is instead of a conversion of `parameters`.
   */
  jsonSchema?: Record<string, unknown>;
  /** Runs with raw (unvalidated) arguments; never throws. */
  run(rawArgs: unknown, ctx: ToolContext): Promise<ToolResult & { durationMs: number }>;
}
