import { formatValue } from './format.js';

/** Module 58: part of the report pipeline. */
export const id = 'module-58';

export function describe58(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count58(items) {
  return items.length;
}
