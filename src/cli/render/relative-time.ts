const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Below this, a time reads "just now". */
const JUST_NOW_MS = 10 * SECOND_MS;
/** From this age on, a time reads as its date: "40 days ago" says less than "2024-05-01". */
const SHOW_DATE_AFTER_MS = 30 * DAY_MS;

/** How long ago `then` was, as people say it: "just now", "42 s ago", "3 min ago", "5 h ago", "2 days ago". */
export function relativeTime(then: number, now: number = Date.now()): string {
  const age = now - then;
  if (age < JUST_NOW_MS) return 'just now';
  if (age < MINUTE_MS) return `${Math.floor(age / SECOND_MS)} s ago`;
  if (age < HOUR_MS) return `${Math.floor(age / MINUTE_MS)} min ago`;
  if (age < DAY_MS) return `${Math.floor(age / HOUR_MS)} h ago`;
  if (age < SHOW_DATE_AFTER_MS) {
    const days = Math.floor(age / DAY_MS);
    return `${days} day${days === 1 ? '' : 's'} ago`;
  }
  return new Date(then).toISOString().slice(0, 10);
}

/** A duration, shortly: "850 ms", "12.3 s", "4 min 05 s". */
export function formatDuration(ms: number): string {
  if (ms < SECOND_MS) return `${Math.round(ms)} ms`;
  if (ms < MINUTE_MS) return `${(ms / SECOND_MS).toFixed(1)} s`;
  const minutes = Math.floor(ms / MINUTE_MS);
  const seconds = Math.floor((ms % MINUTE_MS) / SECOND_MS);
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}
