/** The smallest amount shown as a number; anything above zero below it reads `<$0.0001`. */
const SMALLEST_SHOWN = 0.0001;

/**
 * An amount in US dollars as every front end shows it: cents from $1 on (`$2.35`), up to four
 * decimals below (`$0.0421`, `$0.03`), `<$0.0001` for less, `$0` for nothing at all.
 */
export function formatDollars(amount: number): string {
  if (amount === 0) return '$0';
  if (amount < SMALLEST_SHOWN) return `<$${SMALLEST_SHOWN}`;
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  // Four decimals, without the trailing zeros past the cents.
  return `$${amount.toFixed(4).replace(/0{1,2}$/, '')}`;
}

/** A token count, in thousands from 10,000 on: `950`, `12.3k`. */
export function formatTokenCount(count: number): string {
  return count < 10_000 ? String(Math.round(count)) : `${(count / 1000).toFixed(1)}k`;
}
