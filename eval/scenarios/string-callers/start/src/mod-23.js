import { formatValue } from './format.js';

/** Module 23: part of the report pipeline. */
export const id = 'module-23';

export function describe23(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count23(items) {
  return items.length;
}
