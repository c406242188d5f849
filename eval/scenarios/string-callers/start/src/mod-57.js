import { formatValue } from './format.js';

/** Module 57: part of the report pipeline. */
export const id = 'module-57';

export function describe57(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total57(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
