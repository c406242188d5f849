import { formatValue } from './format.js';

/** Module 37: part of the report pipeline. */
export const id = 'module-37';

export function describe37(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count37(items) {
  return items.length;
}
