import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { baseUrlProblem } from '../model/base-url.js';
import { contextConfigSchema } from '../model/context-limits.js';
import { hasBuiltInPrice } from '../model/prices.js';
import { ModelConfigError } from '../model/types.js';
import { visionConfigSchema } from '../model/vision.js';
import { describeIssues } from '../util/describe-issues.js';
import { nearestNames } from '../util/edit-distance.js';
import { mergeSafety, safetyConfigShape } from './safety-config.js';
import { keysAt } from './schema-keys.js';

/**
 * The settings a config file may hold; unknown keys are an error, so that typos are caught.
 * Made when a config is first checked (a run without a config file checks none): building the
 * zod schemas costs start-up time.
 */
export const taskweaveConfigSchema = z.lazy(() => z.strictObject(configShape()));

/** A base URL that is safe to send requests to and to print (see baseUrlProblem). */
function safeBaseUrl() {
  return z.string().superRefine((value, ctx) => {
    const problem = baseUrlProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `not a usable base URL: ${problem}` });
  });
}

function configShape() {
  return {
    /** `provider:model`, as for --model. */
    model: z.string().min(1).optional(),
    /** Base URL for providers that take one (openai, anthropic, openai-compatible). */
    baseUrl: safeBaseUrl().optional(),
    maxSteps: z.number().int().positive().optional(),
    /**
     * A shared store's URL (`postgres://…`) instead of each workspace's SQLite file; read from the
     * user's own file only (src/runtime/setup/store-choice.ts), never from a workspace's.
     */
    store: z.string().min(1).optional(),
    /** Base URLs a workspace config may send an API key to; read from the user's own file only. */
    trustedBaseUrls: z.array(safeBaseUrl()).optional(),
    /**
     * Models (`provider:model`) a goal queued in the store may ask this machine's runs for,
     * besides the process's own model and the config's `model` (see queued-model-trust.ts); read
     * from the user's own file only.
     */
    queuedModels: z.array(z.string().min(1)).optional(),
    /**
     * The models and base URLs workspace configs chose that the user accepted, per workspace
     * folder (see workspace-model.ts); read from the user's own file only.
     */
    workspaceModels: z
      .array(
        z.strictObject({
          workspace: z.string().min(1),
          model: z.string().optional(),
          baseUrl: z.string().optional(),
        }),
      )
      .optional(),
    /** Milliseconds a model call may wait for the first part of its reply (stream-timeouts.ts). */
    firstTokenTimeoutMs: z.number().int().positive().optional(),
    /** Milliseconds a streamed reply may stall between two parts. */
    streamIdleTimeoutMs: z.number().int().positive().optional(),
    ...safetyConfigShape(),
    /**
     * US dollars per million tokens, by `provider:model`, over the built-in table (prices.ts): what
     * runs, sessions and `taskweave eval` report as cost. A workspace config may price only models
     * the built-in table and the user's own config do not.
     */
    prices: z
      .record(
        z.string(),
        z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }),
      )
      .optional(),
    /** Spending limits in US dollars: a run stops at its next step once its session has spent `session`. */
    budget: z.strictObject({ session: z.number().positive() }).optional(),
    /** Per `provider:model` (or provider): the context window and the fraction at which to compact. */
    context: contextConfigSchema.optional(),
    /** Per `provider:model` (or provider): whether the model sees images, over the built-in table (vision.ts). */
    vision: visionConfigSchema.optional(),
    /** Checkpoints (undo, rewind): the contents of sessions idle longer than `keepDays` are pruned. */
    checkpoints: z.strictObject({ keepDays: z.number().int().positive().optional() }).optional(),
    /** Background commands (run_command `background: true`): how many a session may run at once. */
    background: z.strictObject({ max: z.number().int().nonnegative().max(64).optional() }).optional(),
    /**
     * Language servers: `false` turns diagnostics after edits and code navigation off; `servers`
     * adds servers beside the built-in TypeScript and Python ones (the user's own config only:
     * they are programs to run); `waitMs` bounds how long an edit waits for its diagnostics.
     */
    lsp: z
      .union([
        z.literal(false),
        z.strictObject({
          servers: z
            .record(
              z
                .string()
                .regex(/^[A-Za-z0-9_-]+$/, 'a language server name has letters, digits, - and _ only'),
              z.strictObject({
                command: z.string().min(1),
                args: z.array(z.string()).optional(),
                extensions: z.array(z.string().regex(/^\.[^/\\]+$/, 'an extension starts with a dot')).min(1),
                rootMarkers: z.array(z.string().min(1)).optional(),
                initializationOptions: z.record(z.string(), z.unknown()).optional(),
              }),
            )
            .optional(),
          waitMs: z.number().int().positive().max(60_000).optional(),
        }),
      ])
      .optional(),
    /**
     * Subagents (the `delegate` tool): `false` offers none; `depth` is how many levels of children
     * may start (default 1: a child cannot delegate further).
     */
    subagents: z
      .union([z.literal(false), z.strictObject({ depth: z.number().int().min(1).max(3).optional() })])
      .optional(),
    /** Where plan tasks work: git worktrees (`worktree`), the shared workspace, or `auto` (the default). */
    isolation: z.enum(['auto', 'worktree', 'shared']).optional(),
    /** A completed goal run in worktrees lands its change in the working tree (default true; `--no-apply`). */
    apply: z.boolean().optional(),
    /** Goal branches start at HEAD, leaving uncommitted changes out (default false; `--from-head`). */
    fromHead: z.boolean().optional(),
    /** How a task worktree is set up: a command run once in it, ignored folders linked and files copied from the checkout. */
    worktree: z
      .strictObject({
        setup: z.string().min(1).optional(),
        share: z.array(z.string().min(1)).optional(),
        copy: z.array(z.string().min(1)).optional(),
      })
      .optional(),
  };
}

/** Keys a workspace config cannot override when the user's own config sets them. */
const USER_CHOICE_KEYS: ReadonlySet<string> = new Set(['model', 'baseUrl']);

/** The contents of a taskweave config file. */
export type TaskweaveConfig = z.infer<typeof taskweaveConfigSchema>;

/**
 * Where config files are looked for, in order: the project's `.taskweave/config.json`, then
 * `$XDG_CONFIG_HOME/taskweave/config.json` (by default `$HOME/.config/taskweave/config.json`).
 */
export function configFilePaths(options: { cwd: string; env: NodeJS.ProcessEnv }): string[] {
  const home = options.env.HOME || os.homedir();
  const configHome = options.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    path.join(options.cwd, '.taskweave', 'config.json'),
    path.join(configHome, 'taskweave', 'config.json'),
  ];
}

/** The settings of every config file found, merged, and which file each setting came from. */
export interface LoadedConfig {
  /** Project settings over user settings, key by key. */
  config: TaskweaveConfig;
  /** The file each setting was taken from. */
  sources: { [K in keyof TaskweaveConfig]?: string };
  /** The files that were read, project first. */
  paths: string[];
}

/**
 * Reads every config file that exists (see configFilePaths) and merges them key by key: a
 * project file with one key overrides that key only, the user's other settings still apply;
 * `model` and `baseUrl` are the exception: the user's win.
 * No file at all gives an empty config; a file that is not valid JSON or does not fit the
 * schema is a ModelConfigError naming the file and what is wrong. The safety keys are merged
 * differently (see mergeSafety): a project file may only tighten them.
 */
export async function loadConfigFile(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<LoadedConfig> {
  const loaded: LoadedConfig = { config: {}, sources: {}, paths: [] };
  const [projectPath, userPath] = configFilePaths(options);
  const project = projectPath === undefined ? undefined : await readConfigFile(projectPath);
  const user = userPath === undefined ? undefined : await readConfigFile(userPath);
  // The user file first, so that the project file's keys land on top of it.
  for (const [filePath, config] of [
    [userPath, user],
    [projectPath, project],
  ] as const) {
    if (filePath === undefined || config === undefined) continue;
    loaded.paths.unshift(filePath);
    const { approval, sandbox, network, allow, deny, mcp, prices, budget, hooks, webFetch, ...settings } =
      config;
    if (filePath === projectPath && settings.lsp && settings.lsp.servers !== undefined)
      throw new ModelConfigError(
        `The workspace config ${filePath} sets "lsp.servers": programs taskweave would start, which a workspace config (a cloned repository can bring one along) may not name. Put them in your own config (~/.config/taskweave/config.json).`,
      );
    for (const key of Object.keys(settings) as (keyof typeof settings)[]) {
      if (settings[key] === undefined) continue;
      // The model and where it is sent are the user's choice: a workspace's only fills a gap
      // (and is asked about, see workspace-model.ts).
      if (filePath === projectPath && USER_CHOICE_KEYS.has(key) && loaded.sources[key] !== undefined)
        continue;
      Object.assign(loaded.config, { [key]: settings[key] });
      loaded.sources[key] = filePath;
    }
  }
  const safety = mergeSafety(
    project === undefined || projectPath === undefined ? undefined : { path: projectPath, config: project },
    user,
  );
  Object.assign(loaded.config, safety);
  mergeSpending(loaded, { path: projectPath, config: project }, { path: userPath, config: user });
  return loaded;
}

/**
 * Prices and the budget guard the user's money, so a workspace config (a cloned repository's)
 * cannot loosen them: it prices only models neither the built-in table nor the user's config
 * does, and its budget applies only when it is lower than the user's.
 */
function mergeSpending(
  loaded: LoadedConfig,
  project: { path: string | undefined; config: TaskweaveConfig | undefined },
  user: { path: string | undefined; config: TaskweaveConfig | undefined },
): void {
  const projectPrices = Object.entries(project.config?.prices ?? {}).filter(
    ([model]) => !hasBuiltInPrice(model),
  );
  const prices = { ...Object.fromEntries(projectPrices), ...user.config?.prices };
  if (project.config?.prices !== undefined || user.config?.prices !== undefined) {
    loaded.config.prices = prices;
    loaded.sources.prices = user.config?.prices ? user.path : project.path;
  }
  const budgets = [user, project].flatMap(({ path: file, config }) =>
    config?.budget === undefined ? [] : [{ file, session: config.budget.session }],
  );
  const lowest = budgets.sort((a, b) => a.session - b.session)[0];
  if (lowest !== undefined) {
    loaded.config.budget = { session: lowest.session };
    loaded.sources.budget = lowest.file;
  }
}

async function readConfigFile(filePath: string): Promise<TaskweaveConfig | undefined> {
  const source = await readIfExists(filePath);
  if (source === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(
      `The config file ${filePath} is not valid JSON: ${jsonErrorAt(reason, source)}`,
    );
  }
  const parsed = taskweaveConfigSchema.safeParse(value);
  if (!parsed.success) {
    const didYouMean = (issue: z.core.$ZodIssue) =>
      issue.code === 'unrecognized_keys'
        ? nearestKeyHint(issue.keys, keysAt(taskweaveConfigSchema, issue.path))
        : undefined;
    throw new ModelConfigError(
      `The config file ${filePath} is not valid: ${describeIssues(parsed.error, '; ', didYouMean)}`,
    );
  }
  return parsed.data;
}

async function readIfExists(filePath: string): Promise<string | undefined> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) {
      return undefined;
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`Cannot read the config file ${filePath}: ${reason}`);
  }
}

/** How many edits an unknown key may be from a known one to be suggested. */
const KEY_SUGGESTION_EDITS = 2;

/** "did you mean `maxSteps`" for unknown keys near a known one, else undefined. */
function nearestKeyHint(unknown: readonly string[], known: readonly string[]): string | undefined {
  const near = [...new Set(unknown.flatMap((key) => nearestNames(key, known, KEY_SUGGESTION_EDITS)))];
  return near.length === 0 ? undefined : `did you mean ${near.map((key) => `\`${key}\``).join(' or ')}?`;
}

/**
 * JSON.parse's message with its character position given as a line and column, as an editor
 * shows them (Node 20 says only `at position 17`; later versions add the line in their own words).
 */
function jsonErrorAt(reason: string, source: string): string {
  const match = /^(.*?)(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?$/s.exec(reason);
  if (match === null) return reason;
  const before = source.slice(0, Number(match[2])).split('\n');
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  return `${match[1]} at line ${line}, column ${column}`;
}
