import { formatValue } from './format.js';

/** Module 44: part of the report pipeline. */
export const id = 'module-44';

export function describe44(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count44(items) {
  return items.length;
}
