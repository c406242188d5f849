import type { TokenUsage } from '../../model/call-model.js';
import type { ResolvedModel } from '../../model/types.js';
import type { PromptMode } from '../../prompts/system-prompt.js';
import type { BackgroundCommands } from '../../tools/background/index.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { LanguageServers } from '../../tools/lsp/index.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { CommandSandbox } from '../../tools/sandbox/index.js';
import type { Tool } from '../../tools/types.js';
import type { WebAccess } from '../../tools/web/index.js';
import type { Workspace } from '../../tools/workspace/index.js';
import type { ChangeRecorder } from '../../work/change-recorder.js';
import type { IsolationSettings } from '../../work/isolation.js';
import type { RunControl } from './control.js';
import type { Emit } from './emit.js';
import type { HookRunner } from './hook-runner.js';
import type { LoopName } from './loop-name.js';
import type { PathLocks } from './path-locks.js';
import type { RunRecords } from './run-records.js';
import type { SubagentTag } from './subagent-tag.js';
import type { TaskTracking } from './task-tracking.js';
import type { ToolCallGate } from './tool-call-gate.js';
import type { WireProtocol } from './wire-protocol.js';

/** What every part of one run shares: who to call, where to work, what has been spent. */
export interface RunContext {
  runId: string;
  model: ResolvedModel;
  /** The top-level registry: workspace tools, plus plan_actions unless plans are off. */
  registry: ToolRegistry;
  /** The workspace tools alone (tasks add their own control tools). */
  tools: Tool[];
  /** How plans run: tasks at once, and what a non-interactive run does when a task fails. */
  planOptions: { concurrency: number; onFailure: 'abort' | 'skip' };
  /** Where plan tasks work (git worktrees or the shared workspace); shared when left out. */
  isolation?: IsolationSettings;
  /** How the model calls tools: native tool calling or JSON replies. */
  protocol: WireProtocol;
  /** How the run's work loops produce their steps: `react` or `roa`. */
  loop: LoopName;
  /** Who tracks an approved plan's tasks: the orchestrator, or the model in its own conversation. */
  taskTracking: TaskTracking;
  /** Where the run is recorded: every state change and event goes through its journal. */
  records: RunRecords;
  /** final_answer calls refused in this run because tasks remained. */
  finalAnswerRefusals: number;
  workspace: Workspace;
  /** The run's system prompt for a kind of loop (AGENTS.md read once, at the run's start). */
  systemPrompt: (mode: PromptMode) => string;
  files: FileTracker;
  control: RunControl;
  /** Stands before every tool call: runs, asks or refuses it by the approval rules. */
  approval: ToolCallGate;
  /** How run_command confines commands. */
  sandbox: CommandSandbox;
  /** What web_fetch may reach beyond public addresses; public addresses only when absent. */
  web?: WebAccess;
  /** The user's hooks: run around tool calls, at the run's start and end, and while it waits. */
  hooks: HookRunner;
  /** The session's background commands (they outlive the run); absent where none may run. */
  background?: BackgroundCommands;
  /** The run's language servers (diagnostics after edits, code navigation); absent when off. */
  languageServers?: LanguageServers;
  emit: Emit;
  maxSteps: number;
  /** Serialises writes to one file by tasks running at the same time. */
  pathLocks: PathLocks;
  /** Leaves a change record of every call that changes files (the session's checkpoints). */
  changes: ChangeRecorder;
  /** Steps taken so far in this run (all tasks together). */
  steps: number;
  usage: TokenUsage;
  /** What the run's model calls cost so far in US dollars (stays 0 when the model has no price). */
  cost: number;
  /** The session's spending limit, when one is set (see checkBudget). */
  budget?: RunBudget;
  /** Set when this is a subagent's child run (a `delegate` call's): its agent and parent call. */
  subagent?: SubagentTag;
}

/** A session's spending limit as one run sees it, in US dollars. */
export interface RunBudget {
  limit: number;
  /** What the session's earlier runs cost. */
  spentBefore: number;
  /** Set once the run announced that the budget was passed (budget_exceeded goes out once). */
  exceeded?: boolean;
}

export type { Conversation } from './conversation.js';
