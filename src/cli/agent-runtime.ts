import path from 'node:path';
import { type Command, Option } from 'commander';
import { autoApprove, RunControl } from '../agent/control.js';
import { DEFAULT_MAX_STEPS, type PlanMode, type RunAgentOptions } from '../agent/run-agent.js';
import { EventBus } from '../events/bus.js';
import type { ServerEvent } from '../events/registry.js';
import { resolveModel } from '../model/resolve-model.js';
import type { ResolvedModel } from '../model/types.js';
import { DEFAULT_PLAN_CONCURRENCY } from '../plan/scheduler.js';
import { Workspace } from '../tools/workspace.js';
import { EXIT } from './exit-codes.js';
import { HumanRenderer } from './render.js';
import { addStoreOptions, type OpenedStore, openStoreFor } from './store-options.js';
import { styleFor } from './terminal.js';
import { terminalFailureChooser, terminalInputProvider, terminalPlanApprover } from './terminal-input.js';
import { parsePositiveInt } from './usage-error.js';

/** The options of every command that runs the agent (run, resume, work), as commander parses them. */
export interface AgentCliOptions {
  model?: string;
  baseUrl?: string;
  cwd: string;
  db?: string;
  maxSteps?: number;
  json?: boolean;
  nonInteractive?: boolean;
  inputTimeout?: number;
  plan: PlanMode;
  yes?: boolean;
  concurrency?: number;
  onFailure: 'abort' | 'skip';
  protocol: 'native' | 'json';
  loop: 'react' | 'roa';
}

/** Adds the workspace, store, model and run options to a command. */
export function addAgentOptions(command: Command): Command {
  return addStoreOptions(command)
    .option(
      '-m, --model <provider:model>',
      'the model, e.g. openai:gpt-4.1 or script:examples/fix-build.json',
    )
    .option('--base-url <url>', 'the API base URL (openai-compatible servers: vLLM, LM Studio, llama.cpp…)')
    .option(
      '--max-steps <n>',
      `the most model steps before a run ends (default ${DEFAULT_MAX_STEPS})`,
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
    .addOption(
      new Option(
        '--loop <loop>',
        'how each step runs: react (tool calls, then the next step) or roa (reason → act → observe)',
      )
        .choices(['react', 'roa'])
        .default('react'),
    );
}

/**
 * What a command needs to run the agent: the workspace, its store, the model, and the output
 * (people or --json). Each run gets a fresh control; Ctrl-C stops the current run.
 */
export class AgentRuntime {
  private renderer: HumanRenderer | undefined;
  private control: RunControl | undefined;
  private interrupts = 0;
  private readonly onSigint = () => this.interrupt();
  private readonly onSigterm = () => {
    if (this.interrupts === 0) this.interrupt();
  };

  private constructor(
    readonly options: AgentCliOptions,
    readonly workspace: Workspace,
    readonly store: OpenedStore,
    readonly model: ResolvedModel,
    private readonly maxSteps: number,
  ) {
    if (!options.json) this.renderer = new HumanRenderer(process.stdout, styleFor(process.stdout));
    process.on('SIGINT', this.onSigint);
    // SIGTERM stops like a first Ctrl-C: commands in flight are killed with their process groups
    // instead of being orphaned.
    process.on('SIGTERM', this.onSigterm);
  }

  /** Opens the workspace and its store and resolves the model; bad configuration throws a usage error. */
  static async open(options: AgentCliOptions): Promise<AgentRuntime> {
    const workspace = await Workspace.open(options.cwd);
    const { config, ...model } = await resolveModel({
      model: scriptPathFromShell(options.model),
      baseUrl: options.baseUrl,
      cwd: workspace.root,
      env: process.env,
    });
    const store = await openStoreFor(options, { create: true });
    return new AgentRuntime(
      options,
      workspace,
      store,
      model,
      options.maxSteps ?? config.maxSteps ?? DEFAULT_MAX_STEPS,
    );
  }

  /** Whether the user pressed Ctrl-C (a loop over several runs stops then). */
  get stopRequested(): boolean {
    return this.interrupts > 0;
  }

  /** Whether questions and approvals can be asked on the terminal. */
  get interactive(): boolean {
    return !this.options.json && !this.options.nonInteractive && !!process.stdin.isTTY;
  }

  /** Everything runAgent needs for one run in a session, with events logged and shown. */
  agentOptions(sessionId: string): Omit<RunAgentOptions, 'goal'> {
    const { options } = this;
    const interactive = this.interactive;
    const terminal = {
      input: process.stdin,
      output: process.stdout,
      onInterrupt: () => this.interrupt(),
      onPromptStart: () => this.renderer?.hold(),
      onPromptEnd: () => this.renderer?.release(),
    };
    this.control = new RunControl({
      inputProvider: interactive ? terminalInputProvider(terminal) : undefined,
      inputTimeoutMs: options.inputTimeout !== undefined ? options.inputTimeout * 1000 : undefined,
      planApprover: options.yes ? autoApprove : interactive ? terminalPlanApprover(terminal) : undefined,
      failureChooser: interactive ? terminalFailureChooser(terminal) : undefined,
    });
    if (this.interrupts > 0) this.control.stop();
    const sessions = this.store.sessions;
    const bus = new EventBus({
      sessionId,
      startSeq: sessions.lastSeq(sessionId) + 1,
      sink: (event) => sessions.appendEvent(event),
    });
    bus.subscribe((event) => this.show(event));
    return {
      model: this.model,
      workspace: this.workspace,
      bus,
      control: this.control,
      maxSteps: this.maxSteps,
      concurrency: options.concurrency,
      onFailure: options.onFailure,
      protocol: options.protocol,
      loop: options.loop,
      stores: { sessionId, sessions, tasks: this.store.tasks },
    };
  }

  /** Prints a line for people (not in --json mode, where stdout carries only events). */
  say(text: string): void {
    if (this.renderer) {
      this.renderer.close();
      process.stdout.write(`${text}\n`);
    } else {
      process.stderr.write(`${text}\n`);
    }
  }

  close(): void {
    this.renderer?.close();
    process.off('SIGINT', this.onSigint);
    process.off('SIGTERM', this.onSigterm);
    this.store.close();
  }

  private show(event: ServerEvent): void {
    if (this.renderer) this.renderer.render(event);
    else process.stdout.write(`${JSON.stringify(event)}\n`);
  }

  private interrupt(): void {
    this.interrupts += 1;
    this.renderer?.close();
    if (this.interrupts === 1) {
      process.stderr.write(
        styleFor(process.stderr).yellow(
          '\nstopping at the next step boundary — press Ctrl-C again to exit at once\n',
        ),
      );
      this.control?.stop();
      return;
    }
    process.exit(EXIT.stopped);
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
