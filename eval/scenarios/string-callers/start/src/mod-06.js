import { formatValue } from './format.js';

/** Module 6: part of the report pipeline. */
export const id = 'module-6';

export function describe6(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count6(items) {
  return items.length;
}
