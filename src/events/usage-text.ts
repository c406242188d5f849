/** Below this a cost is shown with four decimals, so that a cheap call does not read as $0.00. */
const CENTS_THRESHOLD = 0.01;

/**
 * An amount in US dollars as every front end shows it: `$1.23`, `$0.0042` under a cent, `$0`
 * for nothing at all.
 */
export function formatDollars(amount: number): string {
  if (amount === 0) return '$0';
  return amount < CENTS_THRESHOLD ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

/** A token count, in thousands from 10,000 on: `950`, `12.3k`. */
export function formatTokenCount(count: number): string {
  return count < 10_000 ? String(Math.round(count)) : `${(count / 1000).toFixed(1)}k`;
}
