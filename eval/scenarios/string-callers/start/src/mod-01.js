import { formatValue } from './format.js';

/** Module 1: part of the report pipeline. */
export const id = 'module-1';

export function describe1(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total1(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
