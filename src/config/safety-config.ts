import { z } from 'zod';
import { ModelConfigError } from '../model/types.js';
import { APPROVAL_MODES, APPROVAL_STRICTNESS } from '../tools/approval.js';
import type { McpServerConfig } from '../tools/mcp/index.js';
import { SANDBOX_MODES } from '../tools/sandbox-modes.js';
import { type HooksConfig, hooksConfigSchema } from './hooks-config.js';

/** The MCP servers of the config, by name (the name prefixes their tools: `name__tool`). */
function mcpServersSchema() {
  /** An MCP server started over stdio: its program, arguments and extra environment. */
  const stdioServerSchema = z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    /** The folder it starts in, relative to the workspace (default: the workspace). */
    cwd: z.string().optional(),
  });
  /** An MCP server reached over streamable HTTP. */
  const httpServerSchema = z.strictObject({
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
  });
  return z.record(
    z.string().regex(/^[A-Za-z0-9_-]+$/, 'an MCP server name has letters, digits, - and _ only'),
    z.union([stdioServerSchema, httpServerSchema]),
  );
}

/**
 * The config keys about safety: approval, sandbox, network, allow and deny lists, MCP servers,
 * hooks. Made when the config schema is (config-file.ts: when a config is first checked).
 */
export function safetyConfigShape() {
  return {
    approval: z.enum(APPROVAL_MODES).optional(),
    sandbox: z.enum(SANDBOX_MODES).optional(),
    /** Network access for sandboxed commands. */
    network: z.boolean().optional(),
    /** Commands (by their first words) and MCP tools that run without asking. */
    allow: z.array(z.string().min(1)).optional(),
    /** Commands and MCP tools that never run. */
    deny: z.array(z.string().min(1)).optional(),
    mcp: mcpServersSchema().optional(),
    /** Commands run around tool calls and at a run's moments (hooks-config.ts); the user's own config only. */
    hooks: hooksConfigSchema.optional(),
    /** Hosts web_fetch may reach on loopback or private addresses; the user's own config only. */
    webFetch: z
      .strictObject({ privateHosts: z.array(z.string().min(1).toLowerCase()).optional() })
      .optional(),
  };
}

/** The safety keys as a config file holds them. */
export interface SafetyConfig {
  approval?: (typeof APPROVAL_MODES)[number];
  sandbox?: (typeof SANDBOX_MODES)[number];
  network?: boolean;
  allow?: string[];
  deny?: string[];
  mcp?: Record<string, McpServerConfig>;
  hooks?: HooksConfig;
  webFetch?: { privateHosts?: string[] };
}

/** Strictest first. */
const SANDBOX_STRICTNESS = ['read-only', 'workspace-write', 'off'] as const;

/**
 * The safety keys of the workspace's config and the user's: a workspace config (which a cloned
 * repository can bring along) may only tighten — stricter modes, more `deny` entries, no
 * network. What loosens or runs programs (`allow`, `mcp`, `hooks`, `webFetch`, `network: true`, `approval: edits|auto`,
 * `sandbox: off`) is refused there with an error, and taken from the user's own config.
 */
export function mergeSafety(
  workspace: { path: string; config: SafetyConfig } | undefined,
  user: SafetyConfig | undefined,
): SafetyConfig {
  const project = workspace?.config ?? {};
  if (workspace) refuseLoosening(workspace.path, project);
  const merged: SafetyConfig = { ...pick(user) };
  const approval = strictest(APPROVAL_STRICTNESS, [project.approval, user?.approval]);
  const sandbox = strictest(SANDBOX_STRICTNESS, [project.sandbox, user?.sandbox]);
  const deny = [...(user?.deny ?? []), ...(project.deny ?? [])];
  if (approval) merged.approval = approval;
  if (sandbox) merged.sandbox = sandbox;
  if (project.network === false) merged.network = false;
  if (deny.length > 0) merged.deny = deny;
  return merged;
}

function pick(config: SafetyConfig | undefined): SafetyConfig {
  if (!config) return {};
  const { approval, sandbox, network, allow, deny, mcp, hooks, webFetch } = config;
  return Object.fromEntries(
    Object.entries({ approval, sandbox, network, allow, deny, mcp, hooks, webFetch }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}

function refuseLoosening(file: string, config: SafetyConfig): void {
  // Each refused key with the flag that sets it for one run, where there is one.
  const loosening = [
    config.allow !== undefined && { key: '"allow"' },
    config.mcp !== undefined && { key: '"mcp"' },
    config.hooks !== undefined && { key: '"hooks"' },
    config.webFetch !== undefined && { key: '"webFetch"' },
    config.network === true && { key: '"network": true', flag: '--network' },
    (config.approval === 'edits' || config.approval === 'auto') && {
      key: `"approval": "${config.approval}"`,
      flag: `--approval ${config.approval}`,
    },
    config.sandbox === 'off' && { key: '"sandbox": "off"', flag: '--sandbox off' },
  ].filter((entry): entry is { key: string; flag?: string } => typeof entry === 'object');
  if (loosening.length === 0) return;
  const flags = loosening.flatMap((entry) => (entry.flag === undefined ? [] : [entry.flag]));
  const these = loosening.length === 1 ? 'this key' : 'these keys';
  const orFlags = flags.length === 0 ? '' : `, or pass ${flags.join(', ')} for one run`;
  throw new ModelConfigError(
    `The workspace config ${file} sets ${loosening.map((entry) => entry.key).join(', ')}, which would loosen what taskweave asks and confines; a workspace config (which a cloned repository can bring along) may only tighten it. Put ${these} in your own config (~/.config/taskweave/config.json)${orFlags}.`,
  );
}

function strictest<T extends string>(order: readonly T[], values: (T | undefined)[]): T | undefined {
  const present = values.filter((value): value is T => value !== undefined);
  if (present.length === 0) return undefined;
  return order.find((mode) => present.includes(mode));
}
