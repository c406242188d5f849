import { formatValue } from './format.js';

/** Module 41: part of the report pipeline. */
export const id = 'module-41';

export function describe41(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function count41(items) {
  return items.length;
}
