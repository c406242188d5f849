import { formatValue } from './format.js';

/** Module 42: part of the report pipeline. */
export const id = 'module-42';

export function describe42(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

export function title42() {
  return formatValue('  Section 42  ');
}
