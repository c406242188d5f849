import { formatValue } from './format.js';

/** Module 46: part of the report pipeline. */
export const id = 'module-46';

export function describe46(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count46(items) {
  return items.length;
}
