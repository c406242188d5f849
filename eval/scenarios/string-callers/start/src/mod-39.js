import { formatValue } from './format.js';

/** Module 39: part of the report pipeline. */
export const id = 'module-39';

export function describe39(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count39(items) {
  return items.length;
}
