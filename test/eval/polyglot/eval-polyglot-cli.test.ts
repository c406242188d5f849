import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evalResultsSchema } from '../../../src/eval/results-file.js';
import { runCli } from '../../helpers/cli.js';
import { envWithoutGo, POLYGLOT_FIXTURE, scriptModel } from './polyglot-fixture.js';

const ORACLE_PRICE = { input: 3, output: 15 };
let project: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'taskweave-polyglot-cli-'));
  await mkdir(path.join(project, '.taskweave'));
  await writeFile(
    path.join(project, '.taskweave', 'config.json'),
    JSON.stringify({ prices: { 'script:oracle': ORACLE_PRICE } }),
  );
});

describe('taskweave eval --suite polyglot (the built CLI)', () => {
  it('--list shows each language, its exercises and whether it can run here', async () => {
    const run = await runCli(['eval', '--suite', 'polyglot', '--path', POLYGLOT_FIXTURE, '--list'], {
      env: envWithoutGo(),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/go\s+1\s+skipped: go: not found/);
    expect(run.stdout).toMatch(/javascript\s+1\s+runs here \(npm test\)/);
    expect(run.stdout).toMatch(/python\s+1\s+runs here \(python3 -m pytest -q\)/);
    expect(run.stdout).toContain('2 of 3 exercises can run on this machine.');
  });

  it('runs the exercises, skips the missing toolchain, writes the leaderboard report', {
    timeout: 120_000,
  }, async () => {
    // Solves leap (its instructions name isLeap) and leaves two-fer as it is.
    const half = await scriptModel([
      {
        when: 'isLeap(year)',
        toolCalls: [
          {
            name: 'write_file',
            args: {
              path: 'leap.js',
              content:
                'export const isLeap = (year) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;\n',
            },
          },
          { name: 'edit_file', args: { path: 'leap.js', old_string: 'no such text', new_string: 'x' } },
        ],
      },
      { text: 'Done.' },
      { text: 'Still done.' },
    ]);
    const run = await runCli(
      [
        'eval',
        '-C',
        project,
        '--suite',
        'polyglot',
        '--path',
        POLYGLOT_FIXTURE,
        '-m',
        'script:oracle',
        '-m',
        half,
        '--out',
        'P',
      ],
      { env: envWithoutGo(), timeoutMs: 110_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('skipped 1 exercise, not counted as failed — go: not found (1)');
    expect(run.stdout).toMatch(
      /✓ \[\d\/4\] javascript\/leap · none · script:oracle #1 — passed on try 1, 2 steps/,
    );
    expect(run.stdout).toMatch(
      /✗ \[\d\/4\] python\/two-fer · none · script:\/.*#1 — the tests failed after 2 tries/,
    );
    expect(run.stdout).toMatch(
      /Model\s+Language\s+Percent correct \(pass@2\)\s+pass@1\s+Percent using correct edit format\s+Cost\s+Time/,
    );
    expect(run.stdout).toMatch(
      /script:oracle\s+all\s+100\.0% \(2\/2\)\s+100\.0% \(2\/2\)\s+100\.0%\s+\$0\.\d+/,
    );
    // One of its two edit calls failed (the edit_file of text that is not there): 50% well-formed.
    expect(run.stdout).toMatch(/script:\/\S+\s+all\s+50\.0% \(1\/2\)\s+50\.0% \(1\/2\)\s+50\.0%\s+—/);

    const results = evalResultsSchema.parse(
      JSON.parse(await readFile(path.join(project, 'P', 'results.json'), 'utf8')),
    );
    expect(results.suite).toBe('polyglot');
    expect(results.scenarios).toEqual(['javascript/leap', 'python/two-fer']);
    expect(results.skipped).toEqual([{ exercise: 'go/hello-world', reason: 'go: not found' }]);
    expect(results.runs).toHaveLength(4);
    const report = await readFile(path.join(project, 'P', 'report.md'), 'utf8');
    expect(report).toContain(
      '| Model | Language | Percent correct (pass@2) | pass@1 | Percent using correct edit format | Cost | Time | Tokens in/out |',
    );
    expect(report).toMatch(
      /\| script:oracle \| python \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 100\.0% \|/,
    );
    expect(report).toContain('- go/hello-world: go: not found');
    expect(report).toMatch(/python\/two-fer #1 \(completed\): the tests failed after 2 tries/);
  });

  it('bad usage is exit code 2 with a clear message, before anything runs', async () => {
    const cases: [string[], RegExp][] = [
      [['--suite', 'polyglot', '-m', 'script:oracle'], /--suite polyglot needs --path/],
      [['--language', 'python', '-m', 'script:oracle'], /--language go with --suite polyglot/],
      [['--suite', 'polyglot', '--path', POLYGLOT_FIXTURE, '--tries', '3'], /expected 1 or 2, got "3"/],
      [
        ['--suite', 'polyglot', '--path', POLYGLOT_FIXTURE, '--language', 'cobol', '-m', 'script:oracle'],
        /Unknown language cobol\. The benchmark has: go, javascript, python\./,
      ],
      [
        ['--suite', 'polyglot', '--path', path.join(project, 'nowhere'), '-m', 'script:lazy'],
        /Cannot read the polyglot benchmark at .*nowhere/,
      ],
      [
        ['--suite', 'polyglot', '--path', POLYGLOT_FIXTURE, '-m', 'script:lazy', '--loop', 'roa'],
        /play the default loop/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['eval', '-C', project, ...args], { env: envWithoutGo() });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
    }
  });
});
