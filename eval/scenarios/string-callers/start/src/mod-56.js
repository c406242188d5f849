import { formatValue } from './format.js';

/** Module 56: part of the report pipeline. */
export const id = 'module-56';

export function describe56(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title56() {
  return formatValue('  Section 56  ');
}
