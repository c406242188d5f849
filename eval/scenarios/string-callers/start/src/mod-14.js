import { formatValue } from './format.js';

/** Module 14: part of the report pipeline. */
export const id = 'module-14';

export function describe14(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title14() {
  return formatValue('  Section 14  ');
}
