import { describe, expect, it } from 'vitest';
import { expectScriptVerdicts } from './script-matrix.js';

describe('a whole eval with the script models, in both ablations', () => {
  it('the oracle passes every scenario; the early stopper fails every multi-part one', {
    timeout: 180_000,
  }, async () => {
    const results = await expectScriptVerdicts(['no-tracking', 'no-plans']);
    const failed = results.filter((run) => !run.passed);
    // 8 multi-part scenarios × 2 ablations, each failed by its checker, not by a budget.
    expect(failed).toHaveLength(16);
    expect(failed.every((run) => run.model === 'script:stop-early' && run.overBudget === undefined)).toBe(
      true,
    );
  });
});
