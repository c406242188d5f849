import { formatValue } from './format.js';

/** Module 45: part of the report pipeline. */
export const id = 'module-45';

export function describe45(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title45() {
  return formatValue('  Section 45  ');
}
