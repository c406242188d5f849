import { formatValue } from './format.js';

/** Module 40: part of the report pipeline. */
export const id = 'module-40';

export function describe40(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

// formatValue is not called here: it formats strings elsewhere.
export const note40 = 'formatValue("x") is documented in README';
