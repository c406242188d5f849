import { formatValue } from './format.js';

/** Module 52: part of the report pipeline. */
export const id = 'module-52';

export function describe52(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title52() {
  return formatValue('  Section 52  ');
}
