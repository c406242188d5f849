import { formatValue } from './format.js';

/** Module 50: part of the report pipeline. */
export const id = 'module-50';

export function describe50(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function total50(values) {
  return formatValue(values.reduce((sum, value) => sum + value, 0));
}
