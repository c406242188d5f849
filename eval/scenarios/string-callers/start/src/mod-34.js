import { formatValue } from './format.js';

/** Module 34: part of the report pipeline. */
export const id = 'module-34';

export function describe34(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count34(items) {
  return items.length;
}
