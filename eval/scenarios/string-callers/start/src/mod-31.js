import { formatValue } from './format.js';

/** Module 31: part of the report pipeline. */
export const id = 'module-31';

export function describe31(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title31() {
  return formatValue('  Section 31  ');
}
