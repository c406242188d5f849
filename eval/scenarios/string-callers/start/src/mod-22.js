import { formatValue } from './format.js';

/** Module 22: part of the report pipeline. */
export const id = 'module-22';

export function describe22(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total22(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
