import { formatValue } from './format.js';

/** Module 53: part of the report pipeline. */
export const id = 'module-53';

export function describe53(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count53(items) {
  return items.length;
}
