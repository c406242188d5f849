import { parseCents } from './amount.js';

/** A refund of a typed amount, as negative cents. */
export function refundCents(text: string): number {
  return -parseCents(text);
}
