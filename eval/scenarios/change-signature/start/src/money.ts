/** A price in cents as text, in euros: formatPrice(1234) is "12.34 EUR". */
export function formatPrice(cents: number): string {
  return `${(cents / 100).toFixed(2)} EUR`;
}
