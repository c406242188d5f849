import { formatValue } from './format.js';

/** Module 18: part of the report pipeline. */
export const id = 'module-18';

export function describe18(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count18(items) {
  return items.length;
}
