import { formatValue } from './format.js';

/** Module 33: part of the report pipeline. */
export const id = 'module-33';

export function describe33(items) {
  const rows = [];
  for (const item of items) {
    const label = item.label ?? 'unnamed';
    rows.push(`${label}: ${item.count}`);
  }
  return rows.join('\n');
}

// formatValue is not called here: it formats strings elsewhere.
export const note33 = 'formatValue("x") is documented in README';
