import { formatValue } from './format.js';

/** Module 3: part of the report pipeline. */
export const id = 'module-3';

export function describe3(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title3() {
  return formatValue('  Section 3  ');
}
