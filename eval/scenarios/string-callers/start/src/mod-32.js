import { formatValue } from './format.js';

/** Module 32: part of the report pipeline. */
export const id = 'module-32';

export function describe32(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count32(items) {
  return items.length;
}
