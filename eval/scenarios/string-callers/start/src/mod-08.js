import { formatValue } from './format.js';

/** Module 8: part of the report pipeline. */
export const id = 'module-8';

export function describe8(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total8(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
