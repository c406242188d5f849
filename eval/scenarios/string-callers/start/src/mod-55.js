import { formatValue } from './format.js';

/** Module 55: part of the report pipeline. */
export const id = 'module-55';

export function describe55(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count55(items) {
  return items.length;
}
