/** A price in cents, shown as euros with two decimals: 1234 → "12.34 EUR". */
export function formatPrice(cents: number): string {
  return `${(cents / 100).toFixed(2)} EUR`;
}
