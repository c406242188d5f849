import { formatValue } from './format.js';

/** Module 25: part of the report pipeline. */
export const id = 'module-25';

export function describe25(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count25(items) {
  return items.length;
}
