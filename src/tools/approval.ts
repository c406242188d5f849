/**
 * When tool calls are asked before they run (`--approval`): `ask` asks for commands, file
 * changes and MCP tools; `edits` lets file changes in the workspace run and asks for the rest;
 * `auto` runs everything (commands inside the sandbox); `plan-only` offers read-only tools only.
 */
export type ApprovalMode = 'ask' | 'edits' | 'auto' | 'plan-only';

/** The approval modes, in the order `--help` lists them. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'edits', 'auto', 'plan-only'];

/** The mode when neither a flag nor the config names one. */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'ask';

/**
 * What a tool call may change, which decides when it is asked: `none` (reads, or only
 * taskweave's own state: the to-do list, the plan), `files` (writes in the workspace),
 * `command` (runs a program) or `external` (an MCP server's tool: anything its server does).
 */
export type ChangeKind = 'none' | 'files' | 'command' | 'external';
