import { formatValue } from './format.js';

/** Module 60: part of the report pipeline. */
export const id = 'module-60';

export function describe60(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count60(items) {
  return items.length;
}
