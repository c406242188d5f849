import { formatValue } from './format.js';

/** Module 17: part of the report pipeline. */
export const id = 'module-17';

export function describe17(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title17() {
  return formatValue('  Section 17  ');
}
