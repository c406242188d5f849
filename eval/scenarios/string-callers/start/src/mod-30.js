import { formatValue } from './format.js';

/** Module 30: part of the report pipeline. */
export const id = 'module-30';

export function describe30(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count30(items) {
  return items.length;
}
