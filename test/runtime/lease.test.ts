import { describe, expect, it } from 'vitest';
import { RuntimeInputError } from '../../src/runtime/setup/errors.js';
import { DEFAULT_LEASE_MS, leaseFrom } from '../../src/runtime/worker/lease-terms.js';

describe('TASKWEAVE_LEASE_MS', () => {
  it('sets the lease in whole milliseconds, at least 1000; unset or empty is the default', () => {
    expect(leaseFrom(undefined)).toBe(DEFAULT_LEASE_MS);
    expect(leaseFrom(' ')).toBe(DEFAULT_LEASE_MS);
    expect(leaseFrom('4000')).toBe(4000);
  });

  it('refuses anything else with a configuration error naming the value', () => {
    for (const value of ['abc', '999', '1500.5', '-3000'])
      expect(() => leaseFrom(value)).toThrow(RuntimeInputError);
    expect(() => leaseFrom('abc')).toThrow(
      'TASKWEAVE_LEASE_MS must be a whole number of milliseconds, at least 1000 (it is "abc")',
    );
  });
});
