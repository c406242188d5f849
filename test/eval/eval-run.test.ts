import { describe, expect, it } from 'vitest';
import { ABLATIONS } from '../../src/eval/ablation.js';
import { runEval } from '../../src/eval/eval-run.js';
import { loadOracle } from '../../src/eval/oracle.js';
import type { ScenarioRunResult } from '../../src/eval/run-scenario.js';
import { loadScenarios } from '../../src/eval/scenario.js';

/**
 * Every scenario, run by the script models in every ablation: the oracle passes everywhere; the
 * model that stops after the first part passes only where taskweave refuses its early final
 * answer (ablation none), and fails the multi-part scenarios in both ablations.
 */
describe('a whole eval with the script models', () => {
  it('oracle passes everything; stop-early fails the multi-part scenarios without tracking', {
    timeout: 240_000,
  }, async () => {
    const scenarios = await loadScenarios();
    const parts = new Map<string, number>();
    for (const scenario of scenarios) parts.set(scenario.name, (await loadOracle(scenario)).parts.length);
    const results = await runEval({
      models: ['script:oracle', 'script:stop-early'],
      scenarios,
      ablations: [...ABLATIONS],
      repeat: 1,
      concurrency: 2,
    });
    expect(results).toHaveLength(scenarios.length * ABLATIONS.length * 2);
    const describeRun = (run: ScenarioRunResult) =>
      `${run.model} ${run.ablation} ${run.scenario}: ${run.reason}`;
    for (const run of results) {
      const multiPart = (parts.get(run.scenario) ?? 0) > 1;
      const shouldPass = run.model === 'script:oracle' || run.ablation === 'none' || !multiPart;
      expect(run.passed, describeRun(run)).toBe(shouldPass);
      expect(run.status, describeRun(run)).toBe('completed');
      expect(run.modelCalls).toBeGreaterThan(0);
      expect(run.inputTokens).toBeGreaterThan(0);
      // Only the orchestrator refuses; it refuses the early stopper once in each multi-part scenario.
      const refusals = run.model === 'script:stop-early' && run.ablation === 'none' && multiPart ? 1 : 0;
      expect(run.refusedFinalAnswers, describeRun(run)).toBe(refusals);
    }
    expect(results.some((run) => run.model === 'script:stop-early' && !run.passed)).toBe(true);
  });
});
