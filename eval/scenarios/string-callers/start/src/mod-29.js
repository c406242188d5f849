import { formatValue } from './format.js';

/** Module 29: part of the report pipeline. */
export const id = 'module-29';

export function describe29(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total29(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
