import { formatValue } from './format.js';

/** Module 36: part of the report pipeline. */
export const id = 'module-36';

export function describe36(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total36(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
