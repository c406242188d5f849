export interface Line {
  price: number;
  quantity: number;
}

/** The total of a cart's lines, in cents. */
export function cartTotal(lines: Line[]): number {
  return lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
}
