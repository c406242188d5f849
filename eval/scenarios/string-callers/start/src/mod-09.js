import { formatValue } from './format.js';

/** Module 9: part of the report pipeline. */
export const id = 'module-9';

export function describe9(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count9(items) {
  return items.length;
}
