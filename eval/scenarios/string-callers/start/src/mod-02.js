import { formatValue } from './format.js';

/** Module 2: part of the report pipeline. */
export const id = 'module-2';

export function describe2(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count2(items) {
  return items.length;
}
