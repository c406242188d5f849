import { formatValue } from './format.js';

/** Module 21: part of the report pipeline. */
export const id = 'module-21';

export function describe21(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title21() {
  return formatValue('  Section 21  ');
}
