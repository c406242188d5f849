import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/eval-run.js';
import { runScenario } from '../../src/eval/run-scenario.js';
import { loadScenario, loadScenarios, SCENARIOS_DIR } from '../../src/eval/scenario.js';

/** A copy of a shipped scenario (beside a copy of the checkers' lib) with some of its scenario.json changed. */
async function variant(name: string, change: (json: Record<string, unknown>) => void) {
  const root = await mkdtemp(path.join(tmpdir(), 'taskweave-scenario-'));
  const dir = path.join(root, 'scenarios', name);
  await cp(path.join(SCENARIOS_DIR, name), dir, { recursive: true });
  await cp(path.join(SCENARIOS_DIR, '..', 'lib'), path.join(root, 'lib'), { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const json = JSON.parse(await readFile(file, 'utf8'));
  change(json);
  await writeFile(file, JSON.stringify(json));
  return loadScenario(dir);
}

describe('one scenario run', () => {
  it('a question nobody answers ends the run with needs_input, and the scenario fails', async () => {
    const scenario = await variant('ask-region', (json) => {
      delete json.input;
    });
    const result = await runScenario({ scenario, model: 'script:oracle', ablation: 'none', repeat: 1 });
    expect(result).toMatchObject({ passed: false, status: 'needs_input', questions: 1 });
    expect(result.reason).toContain('deploy/config.json does not exist');
  });

  it('a run over its token budget is stopped and fails, whatever its files say', async () => {
    const scenario = await variant('release', (json) => {
      json.budget = { maxSteps: 25, maxTokens: 1500 };
    });
    const result = await runScenario({ scenario, model: 'script:oracle', ablation: 'none', repeat: 1 });
    expect(result.passed).toBe(false);
    expect(result.overBudget).toBe('tokens');
    expect(result.status).toBe('stopped');
    // Stopped at the next step boundary after the budget ran out, before the version was set; the checker still ran.
    expect(result.reason).toMatch(
      /^over the token budget \(\d+ > 1500 tokens\) · package.json says version 1.2.0 · the run ended stopped$/,
    );
  });

  it('a run over its step budget fails with max_steps', async () => {
    const scenario = await variant('rename-module', (json) => {
      json.budget = { maxSteps: 3, maxTokens: 500000 };
    });
    const result = await runScenario({ scenario, model: 'script:oracle', ablation: 'no-plans', repeat: 1 });
    expect(result).toMatchObject({ passed: false, status: 'max_steps', overBudget: 'steps', steps: 3 });
  });

  it('keeps the run folder when asked, with the generated script beside the workspace', async () => {
    const [scenario] = await loadScenarios({ names: ['release'] });
    const result = await runScenario({
      scenario: scenario!,
      model: 'script:stop-early',
      ablation: 'none',
      repeat: 1,
      keep: true,
    });
    expect(result.passed).toBe(true);
    const script = JSON.parse(await readFile(path.join(result.folder!, 'stop-early.json'), 'utf8'));
    expect(script.turns[0].toolCalls[0].name).toBe('plan_actions');
    expect(await readFile(path.join(result.folder!, 'workspace', 'src', 'version.js'), 'utf8')).toContain(
      '1.3.0',
    );
  });
});

describe('the eval matrix', () => {
  it('never has more runs going than --concurrency, and keeps matrix order', async () => {
    const scenarios = await loadScenarios({ names: ['release', 'ask-region'] });
    for (const concurrency of [1, 3]) {
      let running = 0;
      let most = 0;
      const results = await runEval({
        models: ['script:oracle'],
        scenarios,
        ablations: ['none', 'no-plans'],
        repeat: 2,
        concurrency,
        onStart: () => {
          running += 1;
          most = Math.max(most, running);
        },
        onResult: () => {
          running -= 1;
        },
      });
      expect(most).toBe(concurrency);
      expect(results.map((run) => `${run.ablation} ${run.scenario} ${run.repeat}`)).toEqual([
        'none release 1',
        'none release 2',
        'none ask-region 1',
        'none ask-region 2',
        'no-plans release 1',
        'no-plans release 2',
        'no-plans ask-region 1',
        'no-plans ask-region 2',
      ]);
      expect(results.every((run) => run.passed)).toBe(true);
    }
  });
});
