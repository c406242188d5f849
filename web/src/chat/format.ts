import type { TokenCount } from '../../../src/events/session-view.js';
import { formatDollars } from '../../../src/events/usage-text.js';

export { formatDollars };

const numbers = new Intl.NumberFormat('en');

/** `1,234 in / 56 out tokens`. */
export function formatTokens(usage: TokenCount): string {
  return `${numbers.format(usage.input)} in / ${numbers.format(usage.output)} out tokens`;
}

/**
 * `1,234 in / 56 out tokens · $0.0123`: the cost only when the calls had a price (the events
 * carry it); a model without one shows its tokens only.
 */
export function formatUsage(usage: TokenCount): string {
  return usage.cost === undefined
    ? formatTokens(usage)
    : `${formatTokens(usage)} · ${formatDollars(usage.cost)}`;
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

/** `820 B`, `14.2 KB`, `3.1 MB` (powers of 1024, as file managers show a file's size). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** `1 task`, `3 tasks`. */
export function countTasks(count: number): string {
  return `${count} ${count === 1 ? 'task' : 'tasks'}`;
}
