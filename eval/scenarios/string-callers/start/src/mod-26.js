import { formatValue } from './format.js';

/** Module 26: part of the report pipeline. */
export const id = 'module-26';

export function describe26(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

// formatValue is not called here: it formats strings elsewhere.
export const note26 = 'formatValue("x") is documented in README';
