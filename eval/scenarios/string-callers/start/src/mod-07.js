import { formatValue } from './format.js';

/** Module 7: part of the report pipeline. */
export const id = 'module-7';

export function describe7(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title7() {
  return formatValue('  Section 7  ');
}
