import { describe, expect, it } from 'vitest';
import { compareResults, comparisonCells } from '../../src/eval/compare.js';
import { markdownTable } from '../../src/eval/markdown-report.js';
import { type EvalResults, type EvalRun, RESULTS_FORMAT } from '../../src/eval/results-file.js';
import { summarize } from '../../src/eval/summary.js';
import { summaryCells } from '../../src/eval/summary-cells.js';
import { costOf } from '../../src/model/prices.js';

function run(overrides: Partial<EvalRun>): EvalRun {
  return {
    model: 'openai:gpt-4.1',
    scenario: 'webapp',
    ablation: 'none',
    repeat: 1,
    passed: true,
    status: 'completed',
    reason: 'ok',
    steps: 4,
    modelCalls: 5,
    inputTokens: 10_000,
    outputTokens: 1_000,
    largestRequest: 4_000,
    refusedFinalAnswers: 0,
    notes: 0,
    questions: 0,
    wallMs: 2_000,
    costUsd: 0.02,
    ...overrides,
  };
}

function results(runs: EvalRun[]): EvalResults {
  return {
    format: RESULTS_FORMAT,
    taskweave: '0.1.0',
    startedAt: 'a',
    finishedAt: 'b',
    models: [],
    ablations: [],
    scenarios: [],
    repeat: 1,
    stopped: false,
    runs,
    summary: [],
  };
}

describe('eval results', () => {
  it('summarises repeats per model, ablation and scenario, with a row over all scenarios', () => {
    const rows = summarize([
      run({ repeat: 1, steps: 4, refusedFinalAnswers: 1 }),
      run({ repeat: 2, passed: false, steps: 8, costUsd: 0.04 }),
      run({ scenario: 'fix-build', steps: 3, wallMs: 1_000 }),
      run({ ablation: 'no-tracking', costUsd: null }),
    ]);
    expect(rows.map((row) => [row.ablation, row.scenario, row.runs, row.passed])).toEqual([
      ['none', 'webapp', 2, 1],
      ['none', 'fix-build', 1, 1],
      ['none', null, 3, 2],
      ['no-tracking', 'webapp', 1, 1],
    ]);
    expect(summaryCells(rows[0]!)).toEqual([
      'openai:gpt-4.1',
      'none',
      'webapp',
      '1/2 50%',
      '6',
      '5',
      '10.0k',
      '1000',
      '4000',
      '$0.03',
      '2.0 s',
      '0.5',
      '0',
    ]);
    expect(summaryCells(rows[2]!)[2]).toBe('all');
    // A model without a price has no cost rather than a cost of zero.
    expect(summaryCells(rows[3]!)[9]).toBe('—');
  });

  it('prices runs per provider:model in dollars per million tokens', () => {
    const prices = { 'openai:gpt-4.1': { input: 2, output: 8 } };
    expect(
      costOf(prices, { model: 'openai:gpt-4.1', inputTokens: 500_000, outputTokens: 100_000 }),
    ).toBeCloseTo(1.8);
    expect(costOf(prices, { model: 'ollama:qwen', inputTokens: 1, outputTokens: 1 })).toBeNull();
  });

  it('compares two results by scenario when each holds one model and ablation', () => {
    const a = results([
      run({ ablation: 'no-tracking', passed: false }),
      run({ ablation: 'no-tracking', scenario: 'release' }),
    ]);
    const b = results([run({}), run({ scenario: 'fix-build' })]);
    const { header, rows } = compareResults(a, b);
    expect(header).toBe('A: openai:gpt-4.1 · no-tracking · B: openai:gpt-4.1 · none');
    expect(rows.map((row) => [row.label, row.successDelta])).toEqual([
      ['webapp', 100],
      ['release', undefined],
      ['all', 50],
      ['fix-build', undefined],
    ]);
    expect(comparisonCells(rows[1]!).slice(0, 4)).toEqual(['release', '1/1 100%', '—', '—']);
  });

  it('compares by model, ablation and scenario otherwise', () => {
    const a = results([run({}), run({ ablation: 'no-plans', passed: false })]);
    const b = results([run({ passed: false }), run({ ablation: 'no-plans' })]);
    expect(compareResults(a, b).rows.map((row) => [row.label, row.successDelta])).toEqual([
      ['openai:gpt-4.1 · none · webapp', -100],
      ['openai:gpt-4.1 · no-plans · webapp', 100],
    ]);
  });

  it('escapes pipes and line breaks in markdown cells', () => {
    expect(markdownTable([{ header: 'a' }, { header: 'n', align: 'right' }], [['x | y\nz', '1']])).toBe(
      '| a | n |\n|---|---:|\n| x \\| y z | 1 |',
    );
  });
});
