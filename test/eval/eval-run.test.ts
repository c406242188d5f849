import { describe, expect, it } from 'vitest';
import { expectScriptVerdicts } from './script-matrix.js';

describe('a whole eval with the script models, taskweave as it is', () => {
  it('the oracle passes every scenario; the early stopper is refused and finishes them too', {
    timeout: 180_000,
  }, async () => {
    const results = await expectScriptVerdicts(['none']);
    const stopper = results.filter((run) => run.model === 'script:stop-early');
    expect(stopper.filter((run) => run.refusedFinalAnswers > 0).length).toBeGreaterThanOrEqual(6);
    // The scenario that needs an answer asked once and got it.
    expect(results.find((run) => run.scenario === 'ask-region')?.questions).toBe(1);
  });
});
