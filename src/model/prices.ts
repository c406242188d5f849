/** A model's price in US dollars per million tokens (built in, or the config file's `prices`). */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Prices by `provider:model`. */
export type PriceTable = Record<string, ModelPrice>;

/**
 * The providers' list prices for their current models (written down by hand on 2026-11-26
 * from their published prices, not fetched), in US dollars per million tokens: the
 * standard tier (prompts up to 200K tokens where a provider charges more above), no cache or
 * batch discount. A model not here has no price (its cost is shown as tokens only) until the
 * config file's `prices` gives it one. Local models (ollama) and openai-compatible servers are
 * never priced here: what they cost is the user's to say.
 */
export const BUILT_IN_PRICES: Readonly<PriceTable> = {
  'openai:gpt-5.2': { input: 1.75, output: 14 },
  'openai:gpt-5.1': { input: 1.25, output: 10 },
  'openai:gpt-5': { input: 1.25, output: 10 },
  'openai:gpt-5-mini': { input: 0.25, output: 2 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4 },
  'openai:gpt-5-codex': { input: 1.25, output: 10 },
  'openai:gpt-4.1': { input: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai:gpt-4o': { input: 2.5, output: 10 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai:o3': { input: 2, output: 8 },
  'openai:o4-mini': { input: 1.1, output: 4.4 },
  'anthropic:claude-opus-4-6': { input: 5, output: 25 },
  'anthropic:claude-opus-4-5': { input: 5, output: 25 },
  'anthropic:claude-opus-4-1': { input: 15, output: 75 },
  'anthropic:claude-opus-4-0': { input: 15, output: 75 },
  'anthropic:claude-sonnet-4-6': { input: 3, output: 15 },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15 },
  'anthropic:claude-sonnet-4-0': { input: 3, output: 15 },
  'anthropic:claude-3-7-sonnet': { input: 3, output: 15 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5 },
  'anthropic:claude-3-5-haiku': { input: 0.8, output: 4 },
  'google:gemini-3-pro-preview': { input: 2, output: 12 },
  'google:gemini-2.5-pro': { input: 1.25, output: 10 },
  'google:gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'google:gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'google:gemini-2.0-flash': { input: 0.1, output: 0.4 },
};

const TOKENS_PER_PRICE_UNIT = 1_000_000;

/** A dated or moving suffix the providers add to a model's name (`-20250929`, `-latest`). */
const VERSION_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/**
 * The price of a model: the config file's `prices` entry for its exact name first, then the
 * built-in table (by its name, or its name without a date or `-latest` suffix); undefined when
 * neither knows it — never a guess.
 */
export function priceOf(model: string, configured: PriceTable = {}): ModelPrice | undefined {
  const own = configured[model];
  if (own !== undefined) return own;
  return BUILT_IN_PRICES[model] ?? BUILT_IN_PRICES[model.replace(VERSION_SUFFIX, '')];
}

/** Whether the built-in table prices a model (so that a workspace config may not re-price it). */
export function hasBuiltInPrice(model: string): boolean {
  return priceOf(model) !== undefined;
}

/** What tokens cost at a price, in US dollars. */
export function costAt(price: ModelPrice, tokens: { inputTokens: number; outputTokens: number }): number {
  return (tokens.inputTokens * price.input + tokens.outputTokens * price.output) / TOKENS_PER_PRICE_UNIT;
}

/** What a run cost in US dollars, or null when its model has no price (see priceOf). */
export function costOf(
  prices: PriceTable,
  run: { model: string; inputTokens: number; outputTokens: number },
): number | null {
  const price = priceOf(run.model, prices);
  return price === undefined ? null : costAt(price, run);
}
