import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalResultsSchema } from '../../src/eval/results-file.js';
import { runCli } from '../helpers/cli.js';
import { type LlmServer, startLlmServer } from '../helpers/llm-server.js';

const ORACLE_PRICE = { input: 3, output: 15 };
let project: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'taskweave-eval-cli-'));
  await mkdir(path.join(project, '.taskweave'));
  await writeFile(
    path.join(project, '.taskweave', 'config.json'),
    JSON.stringify({ prices: { 'script:oracle': ORACLE_PRICE } }),
  );
});

async function results(file: string) {
  return evalResultsSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

describe('taskweave eval (the built CLI)', () => {
  it('runs scenarios, prints the table, writes results.json and report.md, prices runs from the config', {
    timeout: 90_000,
  }, async () => {
    const run = await runCli(
      [
        'eval',
        '-C',
        project,
        '--model',
        'script:oracle',
        '--model',
        'script:stop-early',
        '--scenario',
        'release',
        '--ablation',
        'none',
        '--ablation',
        'no-plans',
        '--out',
        'A',
      ],
      { timeoutMs: 80_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/✓ \[\d\/4\] release · none · script:oracle #1/);
    expect(run.stdout).toMatch(
      /✗ \[\d\/4\] release · no-plans · script:stop-early #1 — CHANGELOG.md has no 1.3.0 section/,
    );
    expect(run.stdout).toMatch(
      /model\s+ablation\s+scenario\s+success\s+steps\s+calls\s+in tok\s+out tok\s+max req\s+cost\s+time\s+refused\s+notes/,
    );
    expect(run.stdout).toMatch(/script:stop-early\s+no-plans\s+release\s+0\/1 0%/);
    expect(run.stdout).toMatch(/script:stop-early\s+none\s+release\s+1\/1 100%.*\s1\s+0$/m);

    const saved = await results(path.join(project, 'A', 'results.json'));
    expect(saved.runs).toHaveLength(4);
    for (const entry of saved.runs) {
      if (entry.model === 'script:oracle')
        expect(entry.costUsd).toBeCloseTo(
          (entry.inputTokens * ORACLE_PRICE.input + entry.outputTokens * ORACLE_PRICE.output) / 1e6,
          10,
        );
      else expect(entry.costUsd).toBeNull();
    }
    const report = await readFile(path.join(project, 'A', 'report.md'), 'utf8');
    expect(report).toContain('| model | ablation | scenario | success |');
    expect(report).toMatch(
      /- `script:stop-early` · no-plans · release #1 \(completed\): CHANGELOG.md has no 1.3.0 section/,
    );
  });

  it('--json prints the results; --compare lines up two results files', { timeout: 90_000 }, async () => {
    const json = await runCli(
      [
        'eval',
        '-C',
        project,
        '-m',
        'script:stop-early',
        '-s',
        'tempting-stop',
        '--ablation',
        'no-tracking',
        '--out',
        'B',
        '--json',
      ],
      { timeoutMs: 60_000 },
    );
    expect(json.code).toBe(0);
    const printed = evalResultsSchema.parse(JSON.parse(json.stdout));
    expect(printed.runs.map((entry) => [entry.scenario, entry.ablation, entry.passed])).toEqual([
      ['tempting-stop', 'no-tracking', false],
    ]);
    const other = await runCli(
      ['eval', '-C', project, '-m', 'script:stop-early', '-s', 'tempting-stop', '--out', 'C', '--json'],
      { timeoutMs: 60_000 },
    );
    expect(other.code).toBe(0);
    const compared = await runCli(['eval', '-C', project, '--compare', 'B/results.json', 'C/results.json']);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toContain('A: script:stop-early · no-tracking · B: script:stop-early · none');
    expect(compared.stdout).toMatch(/tempting-stop\s+0\/1 0%\s+1\/1 100%\s+\+100 pt/);
  });

  it('bad usage is exit code 2 with a clear message, before anything runs', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--scenario', 'nope', '-m', 'script:oracle'],
        /Unknown scenario nope\. The scenarios are: api-endpoint/,
      ],
      [['-m', 'nope:model'], /unknown provider "nope"/],
      [['--ablation', 'fast'], /expected one of none, no-tracking, no-plans/],
      [['--compare', 'A/results.json'], /--compare takes two results files/],
      [['-m', 'script:oracle', '--loop', 'roa'], /script:oracle play the default loop and protocol only/],
      [
        ['--compare', 'A/report.md', 'A/results.json'],
        /report.md: Unexpected token|is not valid JSON|Cannot read the eval results/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['eval', '-C', project, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
    }
  });
});

describe('taskweave eval with a real provider path', () => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('runs a scenario against a local OpenAI-compatible server (--base-url) and checks its outcome', {
    timeout: 60_000,
  }, async () => {
    server.reply(
      { toolCalls: [{ name: 'request_input', args: { question: 'Which region?' } }] },
      {
        toolCalls: [
          {
            name: 'write_file',
            args: {
              path: 'deploy/config.json',
              content: '{ "service": "ledger", "region": "eu-west-3", "replicas": 2 }\n',
            },
          },
        ],
      },
      { text: 'Wrote deploy/config.json for eu-west-3.' },
    );
    const run = await runCli([
      'eval',
      '-C',
      project,
      '--model',
      'openai-compatible:local-coder',
      '--base-url',
      server.baseUrl,
      '--scenario',
      'ask-region',
      '--out',
      'local',
      '--concurrency',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const saved = await results(path.join(project, 'local', 'results.json'));
    expect(saved.runs[0]).toMatchObject({
      model: 'openai-compatible:local-coder',
      passed: true,
      questions: 1,
      modelCalls: 3,
      inputTokens: 30,
      outputTokens: 15,
    });
    expect(server.requests.map((request) => (request.body as { model?: string }).model)).toEqual([
      'local-coder',
      'local-coder',
      'local-coder',
    ]);
    // The scenario's answer reached the model as the tool's result.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('eu-west-3 (Paris)');
  });
});
