/** The arithmetic mean. */
export function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The middle value of the sorted values (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
