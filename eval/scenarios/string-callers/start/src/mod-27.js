import { formatValue } from './format.js';

/** Module 27: part of the report pipeline. */
export const id = 'module-27';

export function describe27(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count27(items) {
  return items.length;
}
