/** An amount a person typed ("12.34", "12", "0.5") in cents: parseAmount("12.34") is 1234. */
export function parseAmount(text: string): number {
  const [whole = '0', fraction = ''] = text.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}
