import { formatValue } from './format.js';

/** Module 59: part of the report pipeline. */
export const id = 'module-59';

export function describe59(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title59() {
  return formatValue('  Section 59  ');
}
