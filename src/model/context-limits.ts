import { z } from 'zod';

/** How big a model's context is and when taskweave compacts a conversation to stay inside it. */
export interface ContextLimits {
  /** The model's context window, in tokens. */
  window: number;
  /** The fraction of the window at which the older part of a conversation is compacted. */
  compactAt: number;
}

/** The window assumed for a model taskweave does not know and the config does not name. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;
/** Compaction starts at this fraction of the window: room is left for the reply and the summary call. */
export const DEFAULT_COMPACT_AT = 0.7;

/**
 * The script model replays turns written by hand: it compacts only when the config gives it a
 * window (a compaction would otherwise take turns the script wrote for the run's own steps).
 */
export const SCRIPT_CONTEXT_WINDOW = Number.MAX_SAFE_INTEGER;

/**
 * Context windows of known models (tokens), by `provider:` and the start of the model's name; the
 * longest matching prefix wins. Local models (ollama) vary with their settings: configure them.
 */
const KNOWN_WINDOWS: readonly [prefix: string, window: number][] = [
  ['openai:gpt-4.1', 1_047_576],
  ['openai:gpt-4o', 128_000],
  ['openai:gpt-5', 400_000],
  ['openai:o3', 200_000],
  ['openai:o4-mini', 200_000],
  ['anthropic:claude-', 200_000],
  ['google:gemini-2.5', 1_048_576],
  ['google:gemini-2.0', 1_048_576],
  ['script:', SCRIPT_CONTEXT_WINDOW],
];

/** The config file's `context` key: per `provider:model` (or per provider), a window and a fraction. */
export const contextConfigSchema = z.record(
  z.string().min(1),
  z.strictObject({
    window: z.number().int().positive().optional(),
    compactAt: z.number().gt(0).max(1).optional(),
  }),
);

/** The config file's `context` setting. */
export type ContextConfig = z.infer<typeof contextConfigSchema>;

/**
 * The limits of a model (`provider:model`): the config's entry for the model, else for its
 * provider, over the known window of the model (else DEFAULT_CONTEXT_WINDOW) and
 * DEFAULT_COMPACT_AT.
 */
export function contextLimitsFor(modelId: string, config: ContextConfig = {}): ContextLimits {
  const provider = modelId.slice(0, Math.max(0, modelId.indexOf(':')));
  const configured = config[modelId] ?? (provider === '' ? undefined : config[provider]) ?? {};
  const known = KNOWN_WINDOWS.filter(([prefix]) => modelId.startsWith(prefix)).sort(
    (a, b) => b[0].length - a[0].length,
  )[0];
  return {
    window: configured.window ?? known?.[1] ?? DEFAULT_CONTEXT_WINDOW,
    compactAt: configured.compactAt ?? DEFAULT_COMPACT_AT,
  };
}
