import { formatValue } from './format.js';

/** Module 11: part of the report pipeline. */
export const id = 'module-11';

export function describe11(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count11(items) {
  return items.length;
}
