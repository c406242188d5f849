import { formatValue } from './format.js';

/** Module 35: part of the report pipeline. */
export const id = 'module-35';

export function describe35(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title35() {
  return formatValue('  Section 35  ');
}
