import { formatValue } from './format.js';

/** Module 4: part of the report pipeline. */
export const id = 'module-4';

export function describe4(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count4(items) {
  return items.length;
}
