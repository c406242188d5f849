import { formatValue } from './format.js';

/** Module 24: part of the report pipeline. */
export const id = 'module-24';

export function describe24(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title24() {
  return formatValue('  Section 24  ');
}
