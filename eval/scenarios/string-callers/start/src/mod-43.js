import { formatValue } from './format.js';

/** Module 43: part of the report pipeline. */
export const id = 'module-43';

export function describe43(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total43(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
