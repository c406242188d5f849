import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateWebBench, planProjects } from '../../../src/eval/web-bench/evaluate-web-bench.js';
import { webBenchReport } from '../../../src/eval/web-bench/web-bench-report.js';
import { webBenchSummary } from '../../../src/eval/web-bench/web-bench-summary.js';

/** The fixture checkout: counter (two tasks, a workspace:* library) and needs-mongo (cannot be set up here). */
const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/web-bench');

/**
 * The fixture's specs drive chromium with taskweave's own playwright-core (found through
 * NODE_PATH: the fixture installs nothing from the registry); the installs go to a cache of the
 * tests' own, in /var/tmp (the sandbox hides the real /tmp).
 */
const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_PATH: path.resolve(path.dirname(createRequire(import.meta.url).resolve('playwright-core')), '..'),
  XDG_CACHE_HOME: mkdtempSync(path.join('/var/tmp', 'taskweave-web-bench-cache-')),
};

describe('the web-bench suite on the fixture checkout', () => {
  it('finds the projects and skips the one whose set-up needs a download from outside npm', async () => {
    const plan = await planProjects({ path: FIXTURE, selection: {}, env: ENV });
    expect(plan.runnable.map((project) => project.name)).toEqual(['counter']);
    expect(plan.runnable[0]!.tasks.map((task) => task.id)).toEqual(['task-1', 'task-2']);
    expect(plan.skipped).toEqual([
      {
        exercise: 'needs-mongo',
        reason: expect.stringContaining('mongodb-memory-server downloads a MongoDB server'),
      },
    ]);
    await expect(
      planProjects({ path: FIXTURE, selection: { projects: ['countr'] }, env: ENV }),
    ).rejects.toThrow('Unknown Web-Bench project countr. Nearest: counter.');
    await expect(planProjects({ path: '/nonexistent', selection: {}, env: ENV })).rejects.toThrow(
      'Cannot read the Web-Bench checkout at /nonexistent',
    );
  });

  it('the oracle passes every task on the first attempt; the lazy model fails the first task twice and stops there', {
    timeout: 300_000,
  }, async () => {
    const { results } = await evaluateWebBench({
      cwd: FIXTURE,
      path: FIXTURE,
      models: ['script:oracle', 'script:lazy'],
      ablations: ['none'],
      repeat: 1,
      concurrency: 2,
      tries: 2,
      env: ENV,
    });
    expect(results.suite).toBe('web-bench');
    expect(results.scenarios).toEqual(['counter']);
    expect(results.skipped?.map((entry) => entry.exercise)).toEqual(['needs-mongo']);
    const [oracle, lazy] = results.runs;
    expect(oracle!.webBench).toMatchObject({ tasks: 2, passedFirst: 2, passedSecond: 2, errorsFirst: 0 });
    expect(oracle!.webBench!.results.map((task) => [task.id, task.passedOnTry])).toEqual([
      ['task-1', 1],
      ['task-2', 1],
    ]);
    expect(oracle!.passed).toBe(true);
    expect(lazy!.passed).toBe(false);
    expect(lazy!.webBench).toMatchObject({ tasks: 2, passedFirst: 0, passedSecond: 0, errorsFirst: 1 });
    expect(lazy!.webBench!.results).toEqual([
      expect.objectContaining({ id: 'task-1', attempts: 2, passedOnTry: null }),
    ]);
    // The failing check's own words come back: which spec failed and why.
    expect(lazy!.webBench!.results[0]!.output).toContain(
      'failed task-1.spec.js › heading: locator.textContent: Timeout',
    );
    expect(lazy!.reason).toContain('0/2 tasks passed');

    const rows = webBenchSummary(results.runs);
    expect(rows.map((row) => [row.model, row.project, row.passedFirst, row.tasks])).toEqual([
      ['script:oracle', null, 2, 2],
      ['script:oracle', 'counter', 2, 2],
      ['script:lazy', null, 0, 2],
      ['script:lazy', 'counter', 0, 2],
    ]);
    const report = webBenchReport(results);
    expect(report).toContain('| script:oracle | all | 100.0% (2/2) | 100.0% (2/2) | 0.0% (0/2) | 2/2 |');
    expect(report).toContain('- needs-mongo: mongodb-memory-server downloads');
  });
});
