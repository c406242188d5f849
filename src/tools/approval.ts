/**
 * When tool calls are asked before they run (`--approval`): `ask` asks for commands, file
 * changes and MCP tools; `edits` lets file changes in the workspace run and asks for the rest;
 * `auto` runs everything (commands inside the sandbox); `plan-only` offers read-only tools only.
 */
export type ApprovalMode = 'ask' | 'edits' | 'auto' | 'plan-only';

/** The approval modes, in the order `--help` lists them. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'edits', 'auto', 'plan-only'];

/** The approval modes, strictest first. */
export const APPROVAL_STRICTNESS = [
  'plan-only',
  'ask',
  'edits',
  'auto',
] as const satisfies readonly ApprovalMode[];

/** Whether approval mode `a` lets more run without asking than `b`. */
export function isLooserApproval(a: ApprovalMode, b: ApprovalMode): boolean {
  return APPROVAL_STRICTNESS.indexOf(a) > APPROVAL_STRICTNESS.indexOf(b);
}

/** The stricter of two approval modes. */
export function stricterApproval(a: ApprovalMode, b: ApprovalMode): ApprovalMode {
  return isLooserApproval(a, b) ? b : a;
}

/** The mode when neither a flag nor the config names one. */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'ask';

/**
 * What a tool call may change, which decides when it is asked: `none` (reads, or only
 * taskweave's own state: the to-do list, the plan), `files` (writes in the workspace),
 * `command` (runs a program), `external` (an MCP server's tool: anything its server does) or
 * `network` (a request to a host on the internet: web_fetch).
 */
export type ChangeKind = 'none' | 'files' | 'command' | 'external' | 'network';
