import { formatValue } from './format.js';

/** Module 10: part of the report pipeline. */
export const id = 'module-10';

export function describe10(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title10() {
  return formatValue('  Section 10  ');
}
