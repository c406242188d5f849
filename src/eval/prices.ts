/** A model's price in US dollars per million tokens (the config file's `prices`). */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Prices by `provider:model`. */
export type PriceTable = Record<string, ModelPrice>;

const TOKENS_PER_PRICE_UNIT = 1_000_000;

/** What a run cost in US dollars, or null when the model has no price in the table. */
export function costOf(
  prices: PriceTable,
  run: { model: string; inputTokens: number; outputTokens: number },
): number | null {
  const price = prices[run.model];
  if (price === undefined) return null;
  return (run.inputTokens * price.input + run.outputTokens * price.output) / TOKENS_PER_PRICE_UNIT;
}
