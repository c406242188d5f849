import { parseCents } from './amount.js';

/** The sum of amounts a person typed, in cents. */
export function sumAmounts(texts: string[]): number {
  return texts.reduce((sum, text) => sum + parseCents(text), 0);
}
