import { type Command, InvalidArgumentError, Option } from 'commander';
import { ABLATIONS, type Ablation } from '../../eval/ablation.js';
import { DEFAULT_EVAL_CONCURRENCY, DEFAULT_RESULTS_DIR } from '../../eval/defaults.js';
import type { EvalCliOptions } from '../options.js';
import { parsePositiveInt } from '../usage-error.js';

const collect = (value: string, previous: string[]) => [...previous, value];

function collectAblation(value: string, previous: Ablation[]): Ablation[] {
  const ablation = ABLATIONS.find((name) => name === value);
  if (ablation === undefined)
    throw new InvalidArgumentError(`expected one of ${ABLATIONS.join(', ')}, got "${value}"`);
  return [...previous, ablation];
}

function parseTries(value: string): 1 | 2 {
  if (value === '1') return 1;
  if (value === '2') return 2;
  throw new InvalidArgumentError(`expected 1 or 2, got "${value}"`);
}

/** Adds `taskweave eval`: scenarios with checkable outcomes, run against models; what runs it is loaded when it runs. */
export function addEvalCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('eval')
    .description(
      'run scenarios with checkable outcomes against models (each in a fresh workspace, checked by a program) and report success, steps, tokens, cost and time',
    )
    .option(
      '-C, --cwd <dir>',
      'the project folder: its .taskweave/config.json gives models and prices',
      process.cwd(),
    )
    .option(
      '-m, --model <provider:model>',
      'a model to evaluate (repeatable); script:oracle, script:stop-early (scenarios) and script:lazy (polyglot, web-bench) need no key',
      collect,
      [],
    )
    .option('--base-url <url>', 'the API base URL (openai-compatible servers: vLLM, llama.cpp, Ollama…)')
    .option('-s, --scenario <name>', 'a scenario to run (repeatable; default all, see --list)', collect, [])
    .option('--repeat <n>', 'runs of each scenario per model and ablation', parsePositiveInt, 1)
    .option(
      '--concurrency <n>',
      `the most runs at the same time (default ${DEFAULT_EVAL_CONCURRENCY}); lower it for rate limits`,
      parsePositiveInt,
      DEFAULT_EVAL_CONCURRENCY,
    )
    .option(
      '--ablation <name>',
      `how the agent runs (repeatable): ${ABLATIONS.join(', ')} (default none)`,
      collectAblation,
      [],
    )
    .option('--out <dir>', `where results.json and report.md go (default ${DEFAULT_RESULTS_DIR}/<date-time>)`)
    .option('--json', 'print the results as JSON instead of the table')
    .option('--compare <files...>', 'compare two results.json files (A B) instead of running')
    .option('--list', 'list the scenarios and exit')
    .option('--keep', 'keep each run’s workspace (the results give its folder)')
    .addOption(
      new Option('--protocol <protocol>', 'how the model calls tools')
        .choices(['native', 'json'])
        .default('native'),
    )
    .addOption(new Option('--loop <loop>', 'how each step runs').choices(['react', 'roa']).default('react'))
    .addOption(
      new Option(
        '--suite <suite>',
        "what to run: taskweave's scenarios, the Aider polyglot benchmark or Web-Bench",
      )
        .choices(['scenarios', 'polyglot', 'web-bench'])
        .default('scenarios'),
    )
    .option(
      '--path <dir>',
      'polyglot, web-bench: the checkout of github.com/Aider-AI/polyglot-benchmark or github.com/bytedance/web-bench',
    )
    .option('--language <name>', 'polyglot: a language to run (repeatable; default all)', collect, [])
    .option(
      '--exercise <name>',
      'polyglot: an exercise to run, `name` or `language/name` (repeatable)',
      collect,
      [],
    )
    .option(
      '--project <name>',
      'web-bench: a project to run (repeatable; default all, see --list)',
      collect,
      [],
    )
    .option('--tasks <n>', 'web-bench: only the first n tasks of each project', parsePositiveInt)
    .option('--limit <n>', 'polyglot, web-bench: run at most n exercises or projects', parsePositiveInt)
    .option(
      '--tries <n>',
      'polyglot, web-bench: 1, or 2 (default): a failing first try gets its test output back once, as Aider and Web-Bench score it',
      parseTries,
      2,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  taskweave eval --model openai:gpt-4.1 --ablation none --ablation no-tracking\n  taskweave eval --model openai-compatible:qwen2.5-coder --base-url http://127.0.0.1:8080/v1 --concurrency 1\n  taskweave eval --model script:oracle --model script:stop-early      # no key needed\n  taskweave eval --compare eval-results/A/results.json eval-results/B/results.json\n  taskweave eval --suite polyglot --path ../polyglot-benchmark --list\n  taskweave eval --suite polyglot --path ../polyglot-benchmark --language python --model script:oracle\n  taskweave eval --suite web-bench --path ../web-bench --list\n  taskweave eval --suite web-bench --path ../web-bench --project react --model script:oracle\n',
    )
    .action(async (options: EvalCliOptions) => {
      const { evalCommand } = await import('./eval-action.js');
      setExitCode(await evalCommand(options));
    });
}
