import type { ServerEvent } from '../../events/registry.js';
import {
  findInstructions,
  type RequestPolicy,
  type Runtime,
  type RuntimeOptions,
  Taskweave,
} from '../../runtime/index.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import type { AgentCliOptions } from '../options.js';
import { loadMarkdown } from '../render/markdown-loader.js';
import { onOutputClosed, outputClosed } from '../render/output-closed.js';
import { ownText } from '../render/own-text.js';
import { HumanRenderer } from '../render/render.js';
import { STILL_RUNNING_ENV } from '../render/still-running.js';
import { styleFor } from '../render/terminal.js';
import { scriptPathFromShell } from './script-path.js';
import { TerminalResponder } from './terminal-responder.js';
import { openRuntimeAskingTrust } from './trust-prompt.js';

/**
 * The runtime as the CLI drives it: events rendered for people (or printed as JSON lines),
 * questions answered at the terminal when there is one (the non-interactive rules otherwise),
 * Ctrl-C and SIGTERM stopping runs at their next step boundary.
 */
export class CliRuntime {
  /** The SDK's face over the runtime: runs, events, answers and stops go through it. */
  readonly taskweave: Taskweave;
  private readonly renderer: HumanRenderer | undefined;
  private readonly responder: TerminalResponder | undefined;
  private interrupts = 0;
  private readonly offOutputClosed: () => void;
  /** What Ctrl-C does: stop the run, then exit (an interactive session replaces it). */
  private interruptHandler = () => this.interrupt();
  private readonly promptListeners = new Set<{ start: () => void; end: () => void }>();
  private readonly onSigint = () => this.interruptHandler();
  private readonly onSigterm = () => {
    if (this.interrupts === 0) this.interrupt();
  };

  private constructor(
    readonly runtime: Runtime,
    private readonly options: AgentCliOptions,
    /** Questions are asked on the terminal (stdin is one, and neither --json nor --non-interactive). */
    readonly interactive: boolean,
    view: { headerOnChange?: boolean },
  ) {
    this.taskweave = new Taskweave(runtime);
    if (!options.json)
      this.renderer = new HumanRenderer(process.stdout, styleFor(process.stdout), {
        verbose: options.verbose,
        headerOnChange: view.headerOnChange,
        stillRunningMs: stillRunningInterval(),
        instructionFiles: () =>
          findInstructions({ workspace: runtime.workspace.root }).map((file) => file.label),
      });
    if (interactive) {
      this.responder = new TerminalResponder(
        this.taskweave,
        {
          input: process.stdin,
          output: process.stdout,
          onInterrupt: () => this.interruptHandler(),
          onPromptStart: () => {
            for (const listener of this.promptListeners) listener.start();
            this.renderer?.hold();
          },
          onPromptEnd: () => {
            this.renderer?.release();
            for (const listener of this.promptListeners) listener.end();
          },
        },
        { input: true, plan: !options.yes, failure: true, approval: true },
      );
    }
    // The reader of stdout went away (`| head`): the run stops quietly at its next step boundary.
    this.offOutputClosed = onOutputClosed(() => {
      this.renderer?.close();
      this.responder?.closeAll();
      void this.taskweave.stop();
    });
    this.taskweave.onEvent((event) => this.show(event));
    runtime.onNotice((text) => this.say(text));
    process.on('SIGINT', this.onSigint);
    // SIGTERM stops like a first Ctrl-C: commands in flight are killed with their process groups
    // instead of being orphaned.
    process.on('SIGTERM', this.onSigterm);
  }

  /** Opens the runtime for a command's options; bad configuration throws before anything runs. */
  static async open(
    options: AgentCliOptions,
    /** `headerOnChange`: the run header only when it changed (the goals of an interactive session). */
    view: { headerOnChange?: boolean } = {},
  ): Promise<CliRuntime> {
    const interactive = !options.json && !options.nonInteractive && !!process.stdin.isTTY;
    const policy: RequestPolicy = {
      input: interactive ? 'ask' : 'nobody',
      plan: options.yes ? 'approve' : interactive ? 'ask' : 'nobody',
      failure: interactive ? 'ask' : options.onFailure,
      approval: interactive ? 'ask' : 'nobody',
    };
    // Trusting a workspace's server is asked only of a person who sees the question and answers it.
    const askTrust = interactive && !!process.stdout.isTTY;
    // The model's text is drawn as markdown on a terminal only: its renderer loads while the runtime opens.
    const drawsMarkdown = !options.json && styleFor(process.stdout).enabled && !!process.stdout.isTTY;
    const [runtime] = await Promise.all([
      openRuntimeAskingTrust(runtimeOptions(options, policy), askTrust),
      drawsMarkdown ? loadMarkdown() : undefined,
    ]);
    return new CliRuntime(runtime, options, interactive, view);
  }

  /** Whether the user pressed Ctrl-C (a loop over several runs stops then). */
  get stopRequested(): boolean {
    return this.interrupts > 0;
  }

  /** Replaces what Ctrl-C does (at a prompt and as SIGINT): the interactive session stops the run only. */
  setInterruptHandler(handler: () => void): void {
    this.interruptHandler = handler;
  }

  /** Calls `start` before a question prompt takes the terminal and `end` after it gave it back. */
  onPrompt(listener: { start: () => void; end: () => void }): void {
    this.promptListeners.add(listener);
  }

  /**
   * Prints a line for people (not in --json mode, where stdout carries only events); on stderr
   * once stdout's reader went away.
   */
  say(text: string): void {
    if (this.renderer && !outputClosed()) {
      this.renderer.close();
      writeTerminal(process.stdout, `${ownText(text, process.stdout)}\n`);
    } else {
      writeTerminal(process.stderr, `${ownText(text, process.stderr)}\n`);
    }
  }

  async close(): Promise<void> {
    this.renderer?.close();
    this.offOutputClosed();
    process.off('SIGINT', this.onSigint);
    process.off('SIGTERM', this.onSigterm);
    await this.runtime.close();
  }

  /**
   * Shows an event of a run another process works (a queued request followed from the log):
   * rendered or printed like this process's own, never answered from here.
   */
  follow(event: ServerEvent): void {
    if (this.renderer) this.renderer.render(event);
    else if (this.options.json) process.stdout.write(`${JSON.stringify(event)}\n`);
  }

  private show(event: ServerEvent): void {
    if (this.renderer) this.renderer.render(event);
    else if (this.options.json) process.stdout.write(`${JSON.stringify(event)}\n`);
    this.responder?.handle(event);
  }

  private interrupt(): void {
    this.interrupts += 1;
    this.renderer?.close();
    if (this.interrupts === 1) {
      // With no run going on (an idle `work --watch`) there is no step to wait for.
      const said = this.runtime.anyRunning
        ? '\nstopping at the next step boundary — press Ctrl-C again to exit at once\n'
        : '\nstopping now: no task is running\n';
      process.stderr.write(styleFor(process.stderr).yellow(said));
      void this.taskweave.stop();
      this.responder?.closeAll();
      return;
    }
    process.exit(EXIT.stopped);
  }
}

/** The runtime's options from a command's model and run options, with who answers requests. */
export function runtimeOptions(
  options: Omit<AgentCliOptions, 'json' | 'nonInteractive'>,
  policy: RequestPolicy,
): RuntimeOptions {
  return {
    cwd: options.cwd,
    db: options.db,
    store: options.store,
    model: scriptPathFromShell(options.model),
    baseUrl: options.baseUrl,
    maxSteps: options.maxSteps,
    budget: options.budget,
    plan: options.plan,
    concurrency: options.concurrency,
    // With `ask` a failure waits for a decision (policy.failure); the rule applies to no one then.
    onFailure: options.onFailure === 'ask' ? 'abort' : options.onFailure,
    protocol: options.protocol,
    loop: options.loop,
    approval: options.approval,
    sandbox: options.sandbox,
    network: options.network,
    ...(options.lsp === false ? { lsp: false } : {}),
    isolation: options.isolation,
    includeUncommitted: options.fromHead ? false : options.includeUncommitted,
    apply: options.apply,
    ...(options.remote === undefined ? {} : { remote: options.remote }),
    inputTimeoutMs: options.inputTimeout === undefined ? undefined : options.inputTimeout * 1000,
    trustDatabase: options.trustDb,
    ...(options.allowQueuedScripts ? { allowQueuedScripts: true } : {}),
    policy,
  };
}

/** The still-running interval set in the environment (for tests and very quiet logs), if any. */
function stillRunningInterval(): number | undefined {
  const value = Number(process.env[STILL_RUNNING_ENV]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
