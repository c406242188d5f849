import { formatValue } from './format.js';

/** Module 16: part of the report pipeline. */
export const id = 'module-16';

export function describe16(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count16(items) {
  return items.length;
}
