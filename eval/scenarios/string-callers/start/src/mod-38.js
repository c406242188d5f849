import { formatValue } from './format.js';

/** Module 38: part of the report pipeline. */
export const id = 'module-38';

export function describe38(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title38() {
  return formatValue('  Section 38  ');
}
