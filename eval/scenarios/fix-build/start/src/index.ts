import { cartTotal } from './cart.js';
import { formatPrice } from './money.js';
import { displayName, type User } from './users.js';

/** One line for the receipt of a user's cart. */
export function receiptLine(user: User, lines: { price: number; quantity: number }[]): string {
  return `${displayName(user)}: ${formatPrice(cartTotal(lines))}`;
}
