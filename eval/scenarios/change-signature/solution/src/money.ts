/** A price in cents as text in a currency: formatPrice(1234, 'EUR') is "12.34 EUR". */
export function formatPrice(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}
