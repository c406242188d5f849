import { expect } from 'vitest';
import type { Ablation } from '../../src/eval/ablation.js';
import { runEval } from '../../src/eval/eval-run.js';
import { loadOracle } from '../../src/eval/oracle.js';
import type { ScenarioRunResult } from '../../src/eval/run-scenario.js';
import { loadScenarios } from '../../src/eval/scenario.js';

/** Scenario runs at once in these tests (each run spawns commands and a checker). */
const TEST_CONCURRENCY = 3;

/**
 * Runs every scenario with the two script models under the ablations and checks each verdict:
 * the oracle passes everywhere; the model that stops after the first part passes only where
 * taskweave refuses its early final answer (ablation none, refused exactly once), and fails the
 * multi-part scenarios under the ablations. Returns the results.
 */
export async function expectScriptVerdicts(ablations: Ablation[]): Promise<ScenarioRunResult[]> {
  const scenarios = await loadScenarios();
  const parts = new Map<string, number>();
  for (const scenario of scenarios) parts.set(scenario.name, (await loadOracle(scenario)).parts.length);
  const results = await runEval({
    models: ['script:oracle', 'script:stop-early'],
    scenarios,
    ablations,
    repeat: 1,
    concurrency: TEST_CONCURRENCY,
  });
  expect(results).toHaveLength(scenarios.length * ablations.length * 2);
  for (const run of results) {
    const label = `${run.model} ${run.ablation} ${run.scenario}: ${run.reason}`;
    const multiPart = (parts.get(run.scenario) ?? 0) > 1;
    const stopsEarly = run.model === 'script:stop-early';
    expect(run.passed, label).toBe(!stopsEarly || run.ablation === 'none' || !multiPart);
    expect(run.status, label).toBe('completed');
    expect(run.modelCalls, label).toBeGreaterThan(0);
    expect(run.inputTokens + run.outputTokens, label).toBeGreaterThan(0);
    expect(run.refusedFinalAnswers, label).toBe(stopsEarly && run.ablation === 'none' && multiPart ? 1 : 0);
  }
  return results;
}
