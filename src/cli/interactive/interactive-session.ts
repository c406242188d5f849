import type { GoalSettings } from '../../runtime/index.js';
import { type AttachedImage, attachedImageLine, attachImageFiles } from '../attach-images.js';
import { EXIT } from '../exit-codes.js';
import type { AgentCliOptions } from '../options.js';
import { safetyLine } from '../render/safety-line.js';
import { shortenLine } from '../render/table.js';
import { styleFor } from '../render/terminal.js';
import { wrapWords } from '../render/text-wrap.js';
import { CliRuntime } from './cli-runtime.js';
import { continueHint } from './continue-hint.js';
import { expandFileReferences } from './file-references.js';
import { findImageReferences, withoutImageAts } from './image-references.js';
import { KeyWatch } from './key-watch.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, LineEditor } from './line-editor.js';
import { sessionRecap } from './session-recap.js';
import { runSlashCommand, type SessionState, SLASH_COMMANDS } from './slash-commands.js';
import { completeWord } from './tab-completion.js';

/** Two Ctrl-C at the prompt within this time end the session. */
const QUIT_WINDOW_MS = 2_000;
/** How many goals the up arrow goes back through. */
const HISTORY_SIZE = 500;
/** The prompt, after the approval mode (`ask › `): what the next tool call will need is always in view. */
const PROMPT = '› ';
/** A background command named on quitting is cut to this: its line stays on an 80-column row. */
const QUIT_COMMAND_CHARS = 40;

/** Options of the interactive session, as commander parses them. */
export interface ChatCliOptions extends AgentCliOptions {
  /** Continue the workspace's last session. */
  continue?: boolean;
}

/**
 * The interactive session: a prompt where the user types goals one after another, each run in
 * the same session (so the model keeps the conversation), with slash commands, `@path` file
 * references, history on the arrow keys, Esc to stop a run and Ctrl-C twice to quit. Built on
 * node:readline's key decoding: the renderer already streams to the terminal, and that keeps
 * start-up light. `firstGoal` (from `taskweave "<goal>"`) runs as if typed at the first prompt.
 */
export async function runInteractiveSession(options: ChatCliOptions, firstGoal?: string): Promise<number> {
  const cli = await CliRuntime.open(options, { headerOnChange: true });
  try {
    return await new InteractiveSession(cli, options).run(firstGoal);
  } finally {
    await cli.close();
  }
}

class InteractiveSession {
  private readonly style = styleFor(process.stdout);
  private readonly state: SessionState;
  private readonly keys: KeyWatch;
  private readonly editor: LineEditor;
  private history: string[] = [];
  private lastPromptInterrupt = 0;
  /** The session of the run going on, if one is. */
  private running: string | undefined;
  /** The task of a goal waiting behind another process's (Esc and Ctrl-C cancel it). */
  private waitingTask: string | undefined;
  /** Typed during a run and not yet given to a prompt, lines ended by `\r`. */
  private typedAhead = '';
  private runInterrupts = 0;
  /** The custom commands' names, for Tab (read when the session starts). */
  private customNames: string[] = [];

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
      clearScreen: () => process.stdout.write('\u001b[2J\u001b[3J\u001b[H'),
      columns: () => process.stdout.columns,
    };
    runtime.customCommands(Object.keys(SLASH_COMMANDS)).then(
      (loaded) => {
        this.customNames = loaded.commands.map((command) => command.name);
      },
      () => {},
    );
    this.keys = new KeyWatch(process.stdin, {
      onEscape: () => this.stopRun('Esc'),
      onInterrupt: () => this.interruptRun(),
    });
    this.editor = new LineEditor({
      input: process.stdin,
      output: process.stdout,
      complete: (text, cursor) =>
        completeWord({
          text,
          cursor,
          commands: [...Object.keys(SLASH_COMMANDS), ...this.customNames],
          resolve: (relative) => runtime.workspace.resolve(relative),
        }),
    });
    cli.setInterruptHandler(() => this.interruptRun());
    // A question prompt takes the keys while it is open.
    cli.onPrompt({ start: () => this.keys.stop(), end: () => this.running && this.keys.start() });
  }

  async run(firstGoal?: string): Promise<number> {
    const { runtime } = this.cli;
    // Pastes come marked, so that their lines stay one message (see LineEditor).
    process.stdout.write(BRACKETED_PASTE_ON);
    const restoreTerminal = () => process.stdout.write(BRACKETED_PASTE_OFF);
    process.once('exit', restoreTerminal);
    if (this.options.continue) {
      const last = await runtime.sessions.find('last').catch(() => undefined);
      this.state.sessionId = last?.id;
      if (last) {
        this.cli.say(this.style.dim(`Continuing session ${last.id}: ${last.title}`));
        const recap = await sessionRecap({
          runtime,
          sessionId: last.id,
          style: this.style,
          columns: process.stdout.columns || 80,
        }).catch(() => []);
        if (recap.length > 0) this.cli.say(recap.join('\n'));
      } else this.cli.say(this.style.dim('There is no session to continue yet: the first goal starts one.'));
    }
    this.cli.say(
      `${this.style.bold('taskweave')} ${this.style.dim(`· ${runtime.model.id} · ${runtime.workspace.root}`)}\n` +
        `${this.style.dim(`${safetyLine(runtime)} · /approval switches`)}\n` +
        this.style.dim(
          'Type a goal and press Enter · /help lists the commands · Esc stops a run · Ctrl-C twice quits',
        ),
    );
    let prefill = '';
    if (firstGoal !== undefined) {
      // As if typed at the first prompt: shown there, then run.
      process.stdout.write(`${this.promptText()}${firstGoal}\n`);
      this.history = [firstGoal];
      const next = await this.handle(firstGoal, (text) => text);
      if (next === 'quit') return this.quit(restoreTerminal);
      prefill = next ?? '';
    }
    for (;;) {
      // What was typed during the last run comes first, line by line, as if typed at the prompt.
      this.typedAhead += this.keys.takeTyped();
      const line = await this.readLine(prefill);
      prefill = '';
      if (line === undefined) break;
      const next = await this.handle(line.shown, line.expand);
      if (next === 'quit') break;
      prefill = next ?? '';
    }
    return this.quit(restoreTerminal);
  }

  /** Ends the session: the terminal as it was, and how to come back to the conversation. */
  private quit(restoreTerminal: () => void): number {
    restoreTerminal();
    process.off('exit', restoreTerminal);
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    this.sayBackgroundEnds();
    this.sayContinueHint();
    return EXIT.completed;
  }

  /** The background commands quitting ends (the runtime stops them as it closes), and those kept. */
  private sayBackgroundEnds(): void {
    const { sessionId } = this.state;
    const commands = sessionId === undefined ? undefined : this.cli.runtime.background.existing(sessionId);
    for (const command of commands?.list() ?? []) {
      if (command.state !== 'running') continue;
      const shown = shortenLine(command.command, QUIT_COMMAND_CHARS);
      this.cli.say(
        command.kept
          ? `background command ${command.id} (${shown}) keeps running, as asked`
          : `stopped background command ${command.id} (${shown})`,
      );
    }
  }

  private sayContinueHint(): void {
    if (this.state.sessionId !== undefined) this.cli.say(this.style.dim(continueHint(this.options)));
  }

  /**
   * Handles a message as sent (`shown`: as the prompt showed it, pastes as their labels; `expand`
   * puts the pastes in): a slash command, or a goal run in the session. `@path` is looked for in
   * what was typed only: a pasted log's `@types/node` is not a file to read. Resolves to 'quit',
   * or to the text to put back in the prompt when it cannot be run as it is.
   */
  private async handle(
    shown: string,
    expand: (text: string) => string,
  ): Promise<'quit' | string | undefined> {
    const { runtime } = this.cli;
    const typed = shown.trim();
    const text = expand(typed).trim();
    if (text === '') return undefined;
    if (text.startsWith('/') && !text.includes('\n')) {
      const outcome = await runSlashCommand(this.state, text);
      if (outcome === 'quit') return 'quit';
      if (outcome !== undefined) await this.runGoal(outcome.goal, outcome.settings);
      return undefined;
    }
    const resolve = (relative: string) => runtime.workspace.resolve(relative);
    let images: AttachedImage[];
    let typedText = typed;
    try {
      const references = await findImageReferences(expand(typed), resolve);
      images = await attachImageFiles(runtime, references.files, runtime.workspace.root);
      typedText = withoutImageAts(typed, references.atPaths);
    } catch (error) {
      // Bad input loses nothing: the line comes back to be fixed.
      this.cli.say(this.style.yellow((error as Error).message));
      return shown;
    }
    const withFiles = await expandFileReferences(typedText, resolve);
    const expanded = 'error' in withFiles ? withFiles : { ...withFiles, goal: expand(withFiles.goal) };
    if ('error' in expanded) {
      this.cli.say(this.style.yellow(expanded.error));
      return shown;
    }
    if (expanded.files.length > 0) this.cli.say(this.style.dim(`with ${expanded.files.join(', ')}`));
    for (const image of images) this.cli.say(this.style.dim(attachedImageLine(image)));
    await this.runGoal(
      expanded.goal,
      images.length === 0 ? undefined : { images: images.map((image) => image.hash) },
    );
    return undefined;
  }

  /**
   * Runs a goal through the SDK's face (`Taskweave.run`) in this session. A goal queued behind a
   * task another process runs shows its steps here as that process (or, when the queue frees
   * first, this one) runs it, and the prompt comes back when it ended; Esc or Ctrl-C cancels it
   * (a process running it stops it at its next step boundary).
   */
  private async runGoal(goal: string, settings?: GoalSettings): Promise<void> {
    const run = this.cli.taskweave.run(goal, {
      ...settings,
      ...(this.state.sessionId === undefined ? {} : { session: this.state.sessionId }),
      following: (event) => this.cli.follow(event),
    });
    const { sessionId, taskId, position } = await run.started;
    this.runInterrupts = 0;
    this.state.sessionId = sessionId;
    if (position > 0) {
      const notice = `Another taskweave is running a task in this workspace: your goal waits in the queue as #${position} and its steps show here when it runs. Esc cancels it.`;
      this.cli.say(this.style.yellow(wrapWords(notice, (process.stdout.columns || 80) - 1).join('\n')));
      this.waitingTask = taskId;
    }
    this.running = sessionId;
    this.keys.start();
    try {
      await run.settled;
    } finally {
      this.keys.stop();
      this.holdKeys();
      this.running = undefined;
      this.waitingTask = undefined;
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
    if (this.waitingTask !== undefined) {
      const task = this.waitingTask;
      this.cli.say(this.style.yellow(`${key}: cancelling the queued goal`));
      void this.cli.runtime.tasks.cancel(task).catch(() => undefined);
    }
    if (this.running === undefined) return;
    this.cli.say(this.style.yellow(`${key}: stopping at the next step boundary`));
    void this.cli.taskweave.stop(this.running).catch(() => undefined);
  }

  /** Ctrl-C during a run: the first stops it, the second quits at once. */
  private interruptRun(): void {
    if (this.running === undefined) return;
    this.runInterrupts += 1;
    if (this.runInterrupts > 1) {
      this.keys.stop();
      this.sayContinueHint();
      process.exit(EXIT.stopped);
    }
    this.stopRun('Ctrl-C (again to quit)');
  }

  private promptText(): string {
    return `${this.style.dim(this.cli.runtime.approvalMode)} ${PROMPT}`;
  }

  /**
   * Reads one message at the prompt (`shown`: as the prompt showed it); undefined when the user
   * quits (Ctrl-C twice on an empty prompt, Ctrl-D).
   */
  private async readLine(
    prefill: string,
  ): Promise<{ shown: string; expand: (text: string) => string } | undefined> {
    for (;;) {
      const { result, remaining } = this.editor.read({
        prompt: this.promptText(),
        history: [...this.history],
        prefill,
        typed: this.typedAhead,
      });
      // What was typed ahead after its first Enter waits for the next prompt.
      this.typedAhead = remaining;
      prefill = '';
      const answer = await result;
      this.holdKeys();
      if (answer.kind === 'end') return undefined;
      if (answer.kind === 'line') {
        if (answer.shown.trim() !== '' && this.history[0] !== answer.shown)
          this.history = [answer.shown, ...this.history].slice(0, HISTORY_SIZE);
        return answer;
      }
      const now = Date.now();
      if (now - this.lastPromptInterrupt < QUIT_WINDOW_MS) return undefined;
      this.lastPromptInterrupt = now;
      process.stdout.write(`${this.style.dim('(press Ctrl-C again to quit)')}\n`);
    }
  }
}
