import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { autoApprove, RunControl } from '../agent/control.js';
import { DEFAULT_MAX_STEPS, type PlanMode, runAgent } from '../agent/run-agent.js';
import { EventBus } from '../events/bus.js';
import { loadConfigFile } from '../model/config-file.js';
import { resolveModel } from '../model/resolve-model.js';
import { DEFAULT_PLAN_CONCURRENCY } from '../plan/scheduler.js';
import { Workspace } from '../tools/workspace.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { HumanRenderer } from './render.js';
import { styleFor } from './terminal.js';
import { terminalFailureChooser, terminalInputProvider, terminalPlanApprover } from './terminal-input.js';
import { parsePositiveInt, UsageError } from './usage-error.js';

/** Options of `taskweave run`, as commander parses them. */
export interface RunCliOptions {
  model?: string;
  baseUrl?: string;
  cwd: string;
  maxSteps?: number;
  json?: boolean;
  nonInteractive?: boolean;
  inputTimeout?: number;
  plan: PlanMode;
  yes?: boolean;
  concurrency?: number;
  onFailure: 'abort' | 'skip';
  protocol: 'native' | 'json';
}

/** Adds `taskweave run` to the program. */
export function addRunCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('run')
    .description('work a goal through with tools until it is done, showing each step')
    .argument('<goal...>', 'what taskweave should do, in plain words')
    .option(
      '-m, --model <provider:model>',
      'the model, e.g. openai:gpt-4.1 or script:examples/fix-build.json',
    )
    .option('--base-url <url>', 'the API base URL (openai-compatible servers: vLLM, LM Studio, llama.cpp…)')
    .option(
      '-C, --cwd <dir>',
      'the workspace folder; every path the agent touches stays inside it',
      process.cwd(),
    )
    .option(
      '--max-steps <n>',
      `the most model steps before the run ends (default ${DEFAULT_MAX_STEPS})`,
      parsePositiveInt,
    )
    .option('--json', 'print the event stream, one JSON object per line (implies --non-interactive)')
    .option('--non-interactive', 'never ask on the terminal; a question ends the run with exit code 4')
    .option(
      '--input-timeout <seconds>',
      'how long a question waits for an answer (default 600)',
      parsePositiveInt,
    )
    .addOption(
      new Option(
        '--plan <mode>',
        'plan multi-step goals as a task graph: auto (the model decides), always, never',
      )
        .choices(['auto', 'always', 'never'])
        .default('auto'),
    )
    .option('-y, --yes', 'approve plans without asking')
    .option(
      '--concurrency <n>',
      `the most plan tasks running at once (default ${DEFAULT_PLAN_CONCURRENCY})`,
      parsePositiveInt,
    )
    .addOption(
      new Option(
        '--on-failure <policy>',
        'when a task fails and no one can be asked: abort the plan, or skip the task',
      )
        .choices(['abort', 'skip'])
        .default('abort'),
    )
    .addOption(
      new Option(
        '--protocol <protocol>',
        'how the model calls tools: native tool calling, or a JSON reply format',
      )
        .choices(['native', 'json'])
        .default('native'),
    )
    .action(async (goalWords: string[], options: RunCliOptions) => {
      setExitCode(await runFromCli(goalWords.join(' '), options));
    });
}

async function runFromCli(goal: string, options: RunCliOptions): Promise<number> {
  const stdout = process.stdout;
  const errStyle = styleFor(process.stderr);
  if (goal.trim() === '') throw new UsageError('The goal is empty: say what taskweave should do.');
  const workspace = await Workspace.open(options.cwd);
  const { config } = await loadConfigFile({ cwd: workspace.root, env: process.env });
  const model = await resolveModel({
    model: scriptPathFromShell(options.model),
    baseUrl: options.baseUrl,
    cwd: workspace.root,
    env: process.env,
  });
  const interactive = !options.json && !options.nonInteractive && !!process.stdin.isTTY;
  const control = new RunControl({
    inputProvider: interactive ? terminalInputProvider(process.stdin, stdout) : undefined,
    inputTimeoutMs: options.inputTimeout !== undefined ? options.inputTimeout * 1000 : undefined,
    planApprover: options.yes
      ? autoApprove
      : interactive
        ? terminalPlanApprover(process.stdin, stdout)
        : undefined,
    failureChooser: interactive ? terminalFailureChooser(process.stdin, stdout) : undefined,
  });
  const bus = new EventBus({ sessionId: randomUUID() });
  const renderer = options.json ? undefined : new HumanRenderer(stdout, styleFor(stdout));
  bus.subscribe((event) => {
    if (renderer) renderer.render(event);
    else stdout.write(`${JSON.stringify(event)}\n`);
  });

  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts === 1) {
      renderer?.close();
      process.stderr.write(
        errStyle.yellow('\nstopping at the next step boundary — press Ctrl-C again to exit at once\n'),
      );
      control.stop();
      return;
    }
    renderer?.close();
    process.exit(EXIT.stopped);
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await runAgent({
      goal,
      model,
      workspace,
      bus,
      control,
      maxSteps: options.maxSteps ?? config.maxSteps ?? DEFAULT_MAX_STEPS,
      plan: options.plan,
      concurrency: options.concurrency,
      onFailure: options.onFailure,
      protocol: options.protocol,
    });
    renderer?.close();
    return exitCodeFor(result.status);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * A script path given on the command line is relative to the folder the user typed it in, not
 * to --cwd (paths in TASKWEAVE_MODEL and the config file resolve against the workspace).
 */
function scriptPathFromShell(model: string | undefined): string | undefined {
  if (!model?.startsWith('script:')) return model;
  return `script:${path.resolve(process.cwd(), model.slice('script:'.length))}`;
}
