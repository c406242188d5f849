import { formatValue } from './format.js';

/** Module 13: part of the report pipeline. */
export const id = 'module-13';

export function describe13(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count13(items) {
  return items.length;
}
