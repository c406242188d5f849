import { lstat, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluatePolyglot, planExercises } from '../../../src/eval/polyglot/evaluate-polyglot.js';
import { FEEDBACK_MAX_LINES, feedbackText } from '../../../src/eval/polyglot/goal.js';
import { polyglotSummary } from '../../../src/eval/polyglot/polyglot-summary.js';
import { installCacheDir } from '../../../src/eval/polyglot/shared-install.js';
import { envWithoutGo, POLYGLOT_FIXTURE, scriptModel, TWO_FER_SOLUTION } from './polyglot-fixture.js';

const shared = {
  cwd: POLYGLOT_FIXTURE,
  path: POLYGLOT_FIXTURE,
  ablations: ['none' as const],
  repeat: 1,
  concurrency: 2,
  env: envWithoutGo(),
};

describe('the polyglot suite on the fixture benchmark', () => {
  it('finds the exercises, skips the language whose toolchain is missing, filters and limits', async () => {
    const plan = await planExercises({ path: POLYGLOT_FIXTURE, selection: {}, env: envWithoutGo() });
    expect(plan.runnable.map((entry) => entry.exercise.name)).toEqual(['javascript/leap', 'python/two-fer']);
    expect(plan.skipped).toEqual([{ exercise: 'go/hello-world', reason: 'go: not found' }]);
    const leap = plan.runnable[0]!.exercise;
    expect(leap.solutionFiles).toEqual(['leap.js']);
    expect(leap.testFiles).toEqual(['leap.spec.js']);
    expect(leap.instructions).toContain('evenly divisible by 4');
    expect(leap.instructions).toContain('Export a function `isLeap(year)`');

    const python = await planExercises({
      path: POLYGLOT_FIXTURE,
      selection: { languages: ['python', 'go'] },
      env: envWithoutGo(),
    });
    expect(python.runnable.map((entry) => entry.exercise.name)).toEqual(['python/two-fer']);
    const one = await planExercises({ path: POLYGLOT_FIXTURE, selection: { limit: 1 }, env: envWithoutGo() });
    expect(one.runnable.map((entry) => entry.exercise.name)).toEqual(['javascript/leap']);
    const named = await planExercises({
      path: POLYGLOT_FIXTURE,
      selection: { exercises: ['two-fer'] },
      env: envWithoutGo(),
    });
    expect(named.runnable.map((entry) => entry.exercise.name)).toEqual(['python/two-fer']);
    await expect(
      planExercises({ path: POLYGLOT_FIXTURE, selection: { languages: ['cobol'] }, env: envWithoutGo() }),
    ).rejects.toThrow('Unknown language cobol. The benchmark has: go, javascript, python.');
    await expect(
      planExercises({ path: POLYGLOT_FIXTURE, selection: { exercises: ['bowling'] }, env: envWithoutGo() }),
    ).rejects.toThrow('Unknown exercise bowling');
    // A missing exercise names the nearest ones: a few edits away, or the same one in another language.
    await expect(
      planExercises({
        path: POLYGLOT_FIXTURE,
        selection: { exercises: ['javascript/lep'] },
        env: envWithoutGo(),
      }),
    ).rejects.toThrow('Unknown exercise javascript/lep in go, javascript, python. Nearest: javascript/leap.');
    await expect(
      planExercises({
        path: POLYGLOT_FIXTURE,
        selection: { exercises: ['javascript/two-fer'] },
        env: envWithoutGo(),
      }),
    ).rejects.toThrow('Nearest: python/two-fer.');
    await expect(planExercises({ path: '/nonexistent', selection: {}, env: envWithoutGo() })).rejects.toThrow(
      'Cannot read the polyglot benchmark at /nonexistent',
    );
  });

  it('the oracle passes every exercise on the first try; the lazy model fails both tries', {
    timeout: 120_000,
  }, async () => {
    const { results } = await evaluatePolyglot({
      ...shared,
      models: ['script:oracle', 'script:lazy'],
      tries: 2,
    });
    expect(results.suite).toBe('polyglot');
    expect(results.skipped).toEqual([{ exercise: 'go/hello-world', reason: 'go: not found' }]);
    const verdicts = results.runs.map((run) => [
      run.model,
      run.scenario,
      run.passed,
      run.polyglot?.passedOnTry,
    ]);
    expect(verdicts).toEqual([
      ['script:oracle', 'javascript/leap', true, 1],
      ['script:oracle', 'python/two-fer', true, 1],
      ['script:lazy', 'javascript/leap', false, null],
      ['script:lazy', 'python/two-fer', false, null],
    ]);
    for (const run of results.runs.filter((entry) => entry.model === 'script:lazy')) {
      // The second try ran: two test runs, two replies from the model.
      expect(run.polyglot?.testRuns, run.reason).toBe(2);
      expect(run.modelCalls).toBe(2);
      expect(run.reason).toMatch(/the tests failed after 2 tries/);
    }
    // The lazy model's leap fails on the tests the exercise ships skipped: they were switched on.
    expect(results.runs[2]?.reason).toMatch(/Remove this statement and implement this function/);
    const rows = polyglotSummary(results.runs);
    expect(rows.map((row) => [row.model, row.language, row.passedFirst, row.passedSecond, row.runs])).toEqual(
      [
        ['script:oracle', null, 2, 2, 2],
        ['script:oracle', 'javascript', 1, 1, 1],
        ['script:oracle', 'python', 1, 1, 1],
        ['script:lazy', null, 0, 0, 2],
        ['script:lazy', 'javascript', 0, 0, 1],
        ['script:lazy', 'python', 0, 0, 1],
      ],
    );
    expect(rows[0]).toMatchObject({ editCalls: 2, wellFormed: 1 });
    expect(rows[3]).toMatchObject({ editCalls: 0, wellFormed: null });
  });

  it('a run that changes a test file fails, however its tests end', { timeout: 60_000 }, async () => {
    const cheat = await scriptModel([
      {
        toolCalls: [
          {
            name: 'write_file',
            args: { path: 'two_fer_test.py', content: 'def test_nothing():\n    assert True\n' },
          },
        ],
      },
      { text: 'The tests pass now.' },
    ]);
    const { results } = await evaluatePolyglot({
      ...shared,
      models: [cheat],
      exercises: ['two-fer'],
      tries: 2,
    });
    const run = results.runs[0]!;
    expect(run.passed).toBe(false);
    expect(run.reason).toContain('the run changed the test file two_fer_test.py');
    expect(run.polyglot).toMatchObject({ changedTests: ['two_fer_test.py'], testRuns: 0, passedOnTry: null });
  });

  it('--tries 2 gives the failing test output to the second try, which then passes', {
    timeout: 60_000,
  }, async () => {
    // The second reply is only taken by a call whose prompt holds pytest's failure: without the
    // feedback the script has no turn left and the run fails.
    const learner = await scriptModel([
      { text: 'two_fer is written.' },
      {
        when: "AssertionError: None != 'One for Alice, one for me.'",
        toolCalls: [{ name: 'write_file', args: { path: 'two_fer.py', content: TWO_FER_SOLUTION } }],
      },
      { when: 'two_fer.py', text: 'Fixed two_fer from the test output.' },
    ]);
    const twice = await evaluatePolyglot({ ...shared, models: [learner], exercises: ['two-fer'], tries: 2 });
    const run = twice.results.runs[0]!;
    expect(run.passed, run.reason).toBe(true);
    expect(run.polyglot).toMatchObject({ passedOnTry: 2, testRuns: 2, editCalls: 1, editErrors: 0 });
    expect(run.reason).toBe('the tests passed on try 2');
    const rows = polyglotSummary(twice.results.runs);
    expect(rows[0]).toMatchObject({ passedFirst: 0, passedSecond: 1 });

    const once = await evaluatePolyglot({ ...shared, models: [learner], exercises: ['two-fer'], tries: 1 });
    expect(once.results.runs[0]).toMatchObject({
      passed: false,
      polyglot: { testRuns: 1, passedOnTry: null },
    });
  });

  it('the test output the second try gets is cut to its first lines', () => {
    const long = Array.from({ length: 200 }, (_, index) => `line ${index + 1}`).join('\n');
    const text = feedbackText(long);
    expect(text.split('\n')).toHaveLength(FEEDBACK_MAX_LINES + 1);
    expect(text).toContain(`line ${FEEDBACK_MAX_LINES}\n[test output cut: 200 lines in all]`);
    expect(text).not.toContain(`line ${FEEDBACK_MAX_LINES + 1}\n`);
    expect(feedbackText('x'.repeat(10_000)).length).toBeLessThan(6_100);
    expect(feedbackText('1 failed')).toBe('1 failed');
  });
});

describe('the shared install of an exercise language', () => {
  it('installs once per set of dependencies, links node_modules into each workspace', {
    timeout: 60_000,
  }, async () => {
    const env = envWithoutGo();
    const { results } = await evaluatePolyglot({
      ...shared,
      env,
      models: ['script:oracle'],
      exercises: ['leap'],
      repeat: 2,
      tries: 2,
      keep: true,
    });
    expect(results.runs.map((run) => run.passed)).toEqual([true, true]);
    const links = await Promise.all(
      results.runs.map((run) => readlink(path.join(run.folder!, 'leap', 'node_modules'))),
    );
    expect(links[0]).toBe(links[1]);
    const cache = installCacheDir(env) ?? '(none)';
    expect(links[0]!.startsWith(cache)).toBe(true);
    expect((await readdir(cache)).filter((name) => name.startsWith('javascript-'))).toHaveLength(1);
    await Promise.all(results.runs.map((run) => rm(run.folder!, { recursive: true, force: true })));
  });

  it('keeps the shared install where the sandbox sees it: never under /tmp, else in each workspace', {
    timeout: 60_000,
  }, async () => {
    expect(installCacheDir({ XDG_CACHE_HOME: '/var/cache/ci', HOME: '/home/u' })).toBe(
      '/var/cache/ci/taskweave/polyglot',
    );
    expect(installCacheDir({ XDG_CACHE_HOME: '/tmp/x', HOME: '/home/u' })).toBe(
      '/home/u/.cache/taskweave/polyglot',
    );
    expect(installCacheDir({ XDG_CACHE_HOME: '/tmp/x', HOME: '/tmp/home' })).toBeUndefined();
    const home = await mkdtemp(path.join(tmpdir(), 'taskweave-polyglot-home-'));
    const env = { ...envWithoutGo(), XDG_CACHE_HOME: path.join(home, 'cache'), HOME: home };
    const { results } = await evaluatePolyglot({
      ...shared,
      env,
      models: ['script:oracle'],
      exercises: ['leap'],
      tries: 1,
      keep: true,
    });
    expect(results.runs.map((run) => run.passed)).toEqual([true]);
    // Not a link into the real /tmp, which the sandbox's commands do not see: the workspace's own install.
    const workspace = path.join(results.runs[0]!.folder!, 'leap');
    const installed = await lstat(path.join(workspace, 'node_modules')).catch(() => undefined);
    expect(installed?.isSymbolicLink() ?? false).toBe(false);
    expect((await lstat(path.join(workspace, 'package-lock.json'))).isFile()).toBe(true);
    await rm(results.runs[0]!.folder!, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });
});
