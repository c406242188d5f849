import type { TokenCount } from '../../../src/events/session-view.js';

const numbers = new Intl.NumberFormat('en');

/** `1,234 in / 56 out tokens`. */
export function formatTokens(usage: TokenCount): string {
  return `${numbers.format(usage.input)} in / ${numbers.format(usage.output)} out tokens`;
}

/** What the tokens cost at a price in US dollars per million tokens: `$0.0123`. */
export function formatCost(usage: TokenCount, price: { input: number; output: number }): string {
  const dollars = (usage.input * price.input + usage.output * price.output) / 1_000_000;
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}

/** `2.4 s`, `1 min 5 s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.floor(seconds % 60)} s`;
}

/** `3 min ago`, or the date for what is older than a day. */
export function formatWhen(ts: number, now = Date.now()): string {
  const seconds = Math.round((now - ts) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(ts).toLocaleDateString();
}
