import { formatValue } from './format.js';

/** Module 20: part of the report pipeline. */
export const id = 'module-20';

export function describe20(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count20(items) {
  return items.length;
}
