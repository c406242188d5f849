import { describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/eval-run.js';
import { loadScenarios } from '../../src/eval/scenario.js';

describe('the string-callers scenario with and without delegate (script:oracle)', () => {
  it('passes both ways; with explorers the parent’s largest request is smaller and the children’s steps count', {
    timeout: 180_000,
  }, async () => {
    const scenarios = await loadScenarios({ names: ['string-callers'] });
    const results = await runEval({
      models: ['script:oracle'],
      scenarios,
      ablations: ['none', 'no-delegate'],
      repeat: 1,
      concurrency: 1,
    });
    const withDelegate = results.find((run) => run.ablation === 'none')!;
    const without = results.find((run) => run.ablation === 'no-delegate')!;
    expect(withDelegate.passed, withDelegate.reason).toBe(true);
    expect(without.passed, without.reason).toBe(true);
    expect(without.notes).toBe(0);
    // Four explorers read 15 modules each: the parent reads only their answers.
    expect(withDelegate.largestRequest).toBeLessThan(without.largestRequest / 2);
    // 3 steps of the parent and 2 of each of the 4 explorers.
    expect(withDelegate.steps).toBe(11);
  });
});
