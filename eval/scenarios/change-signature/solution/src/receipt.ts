import { formatPrice } from './money.js';

/** One receipt line: the item and its price. */
export function receiptLine(item: string, cents: number): string {
  return `${item.padEnd(20, '.')} ${formatPrice(cents, 'EUR')}`;
}
