import { formatValue } from './format.js';

/** Module 48: part of the report pipeline. */
export const id = 'module-48';

export function describe48(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count48(items) {
  return items.length;
}
