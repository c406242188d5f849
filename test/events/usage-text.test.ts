import { describe, expect, it } from 'vitest';
import { formatDollars } from '../../src/events/usage-text.js';

describe('formatDollars', () => {
  it('shows cents from a dollar on, up to four decimals below, and never rounds a cost to nothing', () => {
    expect(formatDollars(2.0134)).toBe('$2.01');
    expect(formatDollars(0.1016)).toBe('$0.1016');
    expect(formatDollars(0.03)).toBe('$0.03');
    expect(formatDollars(0.1)).toBe('$0.10');
    expect(formatDollars(0.00004)).toBe('<$0.0001');
    expect(formatDollars(0)).toBe('$0');
  });
});
