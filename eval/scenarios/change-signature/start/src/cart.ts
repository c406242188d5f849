import { formatPrice } from './money.js';

export interface Line {
  price: number;
  quantity: number;
}

/** The cart's total as text. */
export function cartTotal(lines: Line[]): string {
  return formatPrice(lines.reduce((sum, line) => sum + line.price * line.quantity, 0));
}
