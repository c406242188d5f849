import { formatValue } from './format.js';

/** Module 51: part of the report pipeline. */
export const id = 'module-51';

export function describe51(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count51(items) {
  return items.length;
}
