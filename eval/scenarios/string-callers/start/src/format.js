/** Formats a value for a report line. */
export function formatValue(value) {
  return typeof value === 'number' ? value.toFixed(2) : String(value).trim();
}
