import { formatValue } from './format.js';

/** Module 28: part of the report pipeline. */
export const id = 'module-28';

export function describe28(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title28() {
  return formatValue('  Section 28  ');
}
