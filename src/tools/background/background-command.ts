import { redactSecrets } from '../../util/redact-secrets.js';
import { HeadTailCapture } from '../process/head-tail-capture.js';
import type { CommandEnd, CommandOutcome } from '../process/run-shell-command.js';

/** What the model may read of a background command's output at once (head and tail kept). */
export const MAX_BACKGROUND_READ_CHARS = 12_000;
/** How many of the last output lines a listing (`/shells`, the web panel, events) shows. */
export const BACKGROUND_LAST_LINES = 5;

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
  private partial = '';
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

  /** Takes in a piece of output (stdout or stderr). */
  push(chunk: string): void {
    this.unread.push(chunk);
    const text = this.partial + chunk;
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    if (parts.length > 0) this.lines = [...this.lines, ...parts].slice(-BACKGROUND_LAST_LINES);
  }

  /** The output since the last read, and where the command is now. */
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
    const lastLines = (
      this.partial === '' ? this.lines : [...this.lines, this.partial].slice(-BACKGROUND_LAST_LINES)
    ).map(redactSecrets);
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
