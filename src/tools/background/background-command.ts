import { redactSecrets } from '../../util/redact-secrets.js';
import { HeadTailCapture } from '../process/head-tail-capture.js';
import type { CommandEnd, CommandOutcome } from '../process/run-shell-command.js';

/** What the model may read of a background command's output at once (head and tail kept). */
export const MAX_BACKGROUND_READ_CHARS = 12_000;
/** How many of the last output lines a listing (`/shells`, the web panel, events) shows. */
export const BACKGROUND_LAST_LINES = 5;
/**
 * The most characters of one output line a listing or an event carries: a longer line (a command
 * printing megabytes without a newline) is cut, the rest counted, never held.
 */
export const BACKGROUND_LINE_CHARS = 500;

/** Where a background command is: still running, or how it ended. */
export type BackgroundState = 'running' | 'exited' | 'killed' | 'stopped';

/** A background command as listings show it. */
export interface BackgroundCommandInfo {
  id: string;
  command: string;
  state: BackgroundState;
  exitCode?: number;
  /** Why it was stopped (by the model, the user, the end of the session). */
  stoppedBy?: string;
  kept: boolean;
  startedAt: number;
  lastLines: string[];
}

/** What a read gives: the output since the last read, and where the command is. */
export interface BackgroundRead {
  output: string;
  info: BackgroundCommandInfo;
}

/**
 * One command started with `background: true`: its output (stdout and stderr interleaved, as
 * they arrive) is kept until read, within MAX_BACKGROUND_READ_CHARS (head and tail: a chatty
 * server cannot fill memory), and its last lines for listings.
 */
export class BackgroundCommand {
  readonly startedAt = Date.now();
  private unread = new HeadTailCapture(MAX_BACKGROUND_READ_CHARS);
  private lines: string[] = [];
  /** The start of the line being printed (at most BACKGROUND_LINE_CHARS), and how much more it had. */
  private partial = '';
  private partialCut = 0;
  private end: CommandEnd | undefined;
  private stopper: string | undefined;
  private keptFlag = false;
  /** The process group and mark of its processes, once it started. */
  process: { pgid: number; mark: string } | undefined;
  /** Resolves when the command has ended and its output was taken in. */
  readonly finished: Promise<CommandOutcome>;

  constructor(
    readonly id: string,
    readonly command: string,
    private readonly abort: AbortController,
    run: Promise<CommandOutcome>,
  ) {
    this.finished = run.then((outcome) => {
      this.end = outcome.end;
      return outcome;
    });
  }

  /**
   * Takes in a piece of output (stdout or stderr). What is kept is bounded whatever the output's
   * line structure: the unread output's head and tail, the last lines, each cut to
   * BACKGROUND_LINE_CHARS.
   */
  push(chunk: string): void {
    this.unread.push(chunk);
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      this.extendLine(chunk, start, end);
      this.lines.push(this.cutLine());
      if (this.lines.length > BACKGROUND_LAST_LINES) this.lines.shift();
      this.partial = '';
      this.partialCut = 0;
      start = end + 1;
    }
    this.extendLine(chunk, start, chunk.length);
  }

  /** Adds `chunk[start, end)` to the line being printed, keeping only its start. */
  private extendLine(chunk: string, start: number, end: number): void {
    const room = Math.max(0, BACKGROUND_LINE_CHARS - this.partial.length);
    const kept = Math.min(room, end - start);
    if (kept > 0) this.partial += chunk.slice(start, start + kept);
    this.partialCut += end - start - kept;
  }

  /** The line being printed as listings show it: cut, with how much was left out. */
  private cutLine(): string {
    return this.partialCut === 0 ? this.partial : `${this.partial}… [${this.partialCut} more characters]`;
  }

  /**
   * The output since the last read, and where the command is now. Past MAX_BACKGROUND_READ_CHARS
   * the middle is dropped, and the text says how much.
   */
  read(): BackgroundRead {
    const output = this.unread.text();
    this.unread = new HeadTailCapture(MAX_BACKGROUND_READ_CHARS);
    return { output, info: this.info() };
  }

  /** Whether it is still running. */
  get running(): boolean {
    return this.end === undefined;
  }

  /** Whether the user asked to leave it running when the session ends. */
  get kept(): boolean {
    return this.keptFlag;
  }

  keep(): void {
    this.keptFlag = true;
  }

  /** Ends it with every process it started (SIGTERM, then SIGKILL); resolves once it ended. */
  async stop(by: string): Promise<CommandOutcome> {
    if (this.running) {
      this.stopper ??= by;
      this.abort.abort();
    }
    return this.finished;
  }

  info(): BackgroundCommandInfo {
    // Listings and events store and send these lines: without secrets, as a tool's output.
    const unfinished = this.partial === '' && this.partialCut === 0 ? [] : [this.cutLine()];
    const lastLines = [...this.lines, ...unfinished].slice(-BACKGROUND_LAST_LINES).map(redactSecrets);
    const state = stateOf(this.end);
    return {
      id: this.id,
      command: this.command,
      state,
      ...(this.end?.kind === 'exited' ? { exitCode: this.end.exitCode } : {}),
      ...(state === 'stopped' && this.stopper !== undefined ? { stoppedBy: this.stopper } : {}),
      kept: this.keptFlag,
      startedAt: this.startedAt,
      lastLines,
    };
  }
}

function stateOf(end: CommandEnd | undefined): BackgroundState {
  if (end === undefined) return 'running';
  switch (end.kind) {
    case 'exited':
      return 'exited';
    case 'signaled':
      return 'killed';
    case 'timed_out':
    case 'stopped':
      return 'stopped';
  }
}

/** How a background command stands, in one line: `running`, `exited with code 1`, `stopped by the user`. */
export function stateText(info: BackgroundCommandInfo): string {
  switch (info.state) {
    case 'running':
      return 'running';
    case 'exited':
      return `exited with code ${info.exitCode}`;
    case 'killed':
      return 'killed by a signal';
    case 'stopped':
      return info.stoppedBy ? `stopped by ${info.stoppedBy}` : 'stopped';
  }
}
