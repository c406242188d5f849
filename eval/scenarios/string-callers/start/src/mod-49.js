import { formatValue } from './format.js';

/** Module 49: part of the report pipeline. */
export const id = 'module-49';

export function describe49(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title49() {
  return formatValue('  Section 49  ');
}
