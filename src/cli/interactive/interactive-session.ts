import { createInterface } from 'node:readline';
import { EXIT } from '../exit-codes.js';
import type { AgentCliOptions } from '../options.js';
import { safetyLine } from '../render/safety-line.js';
import { styleFor } from '../render/terminal.js';
import { CliRuntime } from './cli-runtime.js';
import { expandFileReferences } from './file-references.js';
import { KeyWatch } from './key-watch.js';
import { runSlashCommand, type SessionState } from './slash-commands.js';

/** Two Ctrl-C at the prompt within this time end the session. */
const QUIT_WINDOW_MS = 2_000;
/** How many goals the up arrow goes back through. */
const HISTORY_SIZE = 500;
/** The prompt, after the approval mode (`ask › `): what the next tool call will need is always in view. */
const PROMPT = '› ';

/** Options of the interactive session, as commander parses them. */
export interface ChatCliOptions extends AgentCliOptions {
  /** Continue the workspace's last session. */
  continue?: boolean;
}

/**
 * The interactive session: a prompt where the user types goals one after another, each run in
 * the same session (so the model keeps the conversation), with slash commands, `@path` file
 * references, history on the arrow keys, Esc to stop a run and Ctrl-C twice to quit. Built on
 * node:readline: the renderer already streams to the terminal, and readline keeps start-up light.
 */
export async function runInteractiveSession(options: ChatCliOptions): Promise<number> {
  const cli = await CliRuntime.open(options);
  try {
    return await new InteractiveSession(cli, options).run();
  } finally {
    await cli.close();
  }
}

class InteractiveSession {
  private readonly style = styleFor(process.stdout);
  private readonly state: SessionState;
  private readonly keys: KeyWatch;
  private history: string[] = [];
  private lastPromptInterrupt = 0;
  /** The session of the run going on, if one is. */
  private running: string | undefined;
  /** Typed during a run and not yet given to a prompt, lines ended by `\r`. */
  private typedAhead = '';
  private runInterrupts = 0;

  constructor(
    private readonly cli: CliRuntime,
    private readonly options: ChatCliOptions,
  ) {
    const { runtime } = cli;
    this.state = {
      runtime,
      style: this.style,
      say: (text) => cli.say(text),
      sessionId: undefined,
      usage: new Map(),
      clearScreen: () => process.stdout.write('\u001b[2J\u001b[3J\u001b[H'),
      columns: () => process.stdout.columns,
    };
    runtime.bus.subscribe((event) => {
      if (event.type !== 'agent_update' || event.update_type !== 'agent_completion') return;
      const used = this.state.usage.get(event.session_id) ?? { runs: 0, input: 0, output: 0 };
      this.state.usage.set(event.session_id, {
        runs: used.runs + 1,
        input: used.input + event.input_tokens,
        output: used.output + event.output_tokens,
      });
    });
    this.keys = new KeyWatch(process.stdin, {
      onEscape: () => this.stopRun('Esc'),
      onInterrupt: () => this.interruptRun(),
    });
    cli.setInterruptHandler(() => this.interruptRun());
    // A question prompt takes the keys while it is open.
    cli.onPrompt({ start: () => this.keys.stop(), end: () => this.running && this.keys.start() });
  }

  async run(): Promise<number> {
    const { runtime } = this.cli;
    if (this.options.continue) {
      const last = await runtime.sessions.find('last').catch(() => undefined);
      this.state.sessionId = last?.id;
      if (last) this.cli.say(this.style.dim(`Continuing session ${last.id}: ${last.title}`));
      else this.cli.say(this.style.dim('There is no session to continue yet: the first goal starts one.'));
    }
    this.cli.say(
      `${this.style.bold('taskweave')} ${this.style.dim(`· ${runtime.model.id} · ${runtime.workspace.root}`)}\n` +
        `${this.style.dim(`${safetyLine(runtime)} · /approval switches`)}\n` +
        this.style.dim(
          'Type a goal and press Enter · /help lists the commands · Esc stops a run · Ctrl-C twice quits',
        ),
    );
    let prefill = '';
    for (;;) {
      // What was typed during the last run comes first, line by line, as if typed at the prompt.
      this.typedAhead += this.keys.takeTyped();
      const line = await this.readLine(prefill);
      prefill = '';
      if (line === undefined) break;
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        if ((await runSlashCommand(this.state, text)) === 'quit') break;
        continue;
      }
      const expanded = await expandFileReferences(text, (relative) => runtime.workspace.resolve(relative));
      if ('error' in expanded) {
        // Bad input loses nothing: the line comes back to be fixed.
        this.cli.say(this.style.yellow(expanded.error));
        prefill = line;
        continue;
      }
      if (expanded.files.length > 0) this.cli.say(this.style.dim(`with ${expanded.files.join(', ')}`));
      await this.runGoal(expanded.goal);
    }
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    return EXIT.completed;
  }

  private async runGoal(goal: string): Promise<void> {
    const submission = await this.cli.runtime.submit(goal, { sessionId: this.state.sessionId });
    if (submission.kind === 'queued') {
      this.cli.say(
        this.style.yellow(
          `Another taskweave is running a task in this workspace; your goal waits in its queue as #${submission.position} and runs there.`,
        ),
      );
      return;
    }
    this.state.sessionId = submission.sessionId;
    this.running = submission.sessionId;
    this.runInterrupts = 0;
    this.keys.start();
    try {
      await submission.done;
    } finally {
      this.keys.stop();
      this.holdKeys();
      this.running = undefined;
    }
  }

  /**
   * Keeps the terminal in raw mode between prompts (readline and the key watch each leave it
   * cooked when they stop). In cooked mode the terminal would echo what is typed ahead and turn
   * its Ctrl-U and Enter into line editing of its own, so a line typed while the last one is
   * still being handled would reach the next prompt mangled; in raw mode the keys wait, unechoed,
   * for the next prompt.
   */
  private holdKeys(): void {
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
  }

  private stopRun(key: string): void {
    if (this.running === undefined) return;
    this.cli.say(this.style.yellow(`${key}: stopping at the next step boundary`));
    this.cli.runtime.stop(this.running);
  }

  /** Ctrl-C during a run: the first stops it, the second quits at once. */
  private interruptRun(): void {
    if (this.running === undefined) return;
    this.runInterrupts += 1;
    if (this.runInterrupts > 1) {
      this.keys.stop();
      process.exit(EXIT.stopped);
    }
    this.stopRun('Ctrl-C (again to quit)');
  }

  /** Reads one line at the prompt; undefined when the user quits (Ctrl-C twice, Ctrl-D). */
  private readLine(prefill: string): Promise<string | undefined> {
    return new Promise((resolve) => {
      const prompt = createInterface({
        input: process.stdin,
        output: process.stdout,
        terminal: true,
        history: [...this.history],
        historySize: HISTORY_SIZE,
        removeHistoryDuplicates: true,
        prompt: `${this.style.dim(this.cli.runtime.approvalMode)} ${PROMPT}`,
      });
      let done = false;
      const finish = (value: string | undefined) => {
        if (done) return;
        done = true;
        prompt.close();
        this.holdKeys();
        if (value !== undefined && value.trim() !== '' && this.history[0] !== value)
          this.history = [value, ...this.history].slice(0, HISTORY_SIZE);
        resolve(value);
      };
      prompt.on('line', (line) => finish(line));
      prompt.on('close', () => finish(undefined));
      prompt.on('SIGINT', () => {
        if (prompt.line !== '') {
          // The first Ctrl-C clears what was typed, as in a shell.
          prompt.write(null, { ctrl: true, name: 'u' });
          return;
        }
        const now = Date.now();
        if (now - this.lastPromptInterrupt < QUIT_WINDOW_MS) {
          process.stdout.write('\n');
          finish(undefined);
          return;
        }
        this.lastPromptInterrupt = now;
        process.stdout.write(`\n${this.style.dim('(press Ctrl-C again to quit)')}\n`);
        prompt.prompt();
      });
      prompt.prompt();
      if (prefill !== '') prompt.write(prefill);
      // One line of what was typed ahead (the rest waits for the next prompt).
      const end = this.typedAhead.indexOf('\r');
      const ahead = end === -1 ? this.typedAhead : this.typedAhead.slice(0, end + 1);
      this.typedAhead = this.typedAhead.slice(ahead.length);
      if (ahead !== '') prompt.write(ahead);
    });
  }
}
