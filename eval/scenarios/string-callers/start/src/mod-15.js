import { formatValue } from './format.js';

/** Module 15: part of the report pipeline. */
export const id = 'module-15';

export function describe15(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total15(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
