import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { CLI_PATH } from './cli.js';

/** The size of the terminal the tests run on, as the issue asks: a common default. */
export const PTY_COLUMNS = 80;
export const PTY_ROWS = 24;
/** How much a screen remembers: far more than any test prints, so nothing is lost to counting. */
const SCROLLBACK_LINES = 10_000;

export interface PtyOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * The real CLI on a pseudo-terminal of 80×24, read back through a headless xterm as a person
 * would see it: the screen after every escape sequence is applied, and how many lines the run
 * left in the scrollback.
 */
export class PtyRun {
  private readonly terminal: InstanceType<typeof xterm.Terminal>;
  private readonly process: pty.IPty;
  private readonly waiters = new Set<() => void>();
  /** Every byte the process wrote, as written (escape sequences included). */
  private output = '';
  /** Resolves with the exit code once the process ended and everything it wrote is on the screen. */
  readonly exited: Promise<number>;

  private constructor(args: string[], options: PtyOptions) {
    this.terminal = new xterm.Terminal({
      cols: PTY_COLUMNS,
      rows: PTY_ROWS,
      scrollback: SCROLLBACK_LINES,
      allowProposedApi: true,
    });
    this.process = pty.spawn(process.execPath, [CLI_PATH, ...args], {
      cols: PTY_COLUMNS,
      rows: PTY_ROWS,
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, TERM: 'xterm-256color', TASKWEAVE_RETRY_BASE_MS: '10', ...options.env },
    });
    this.process.onData((data) => {
      this.output += data;
      this.terminal.write(data, () => this.wake());
    });
    const timer = setTimeout(() => this.process.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    this.exited = new Promise((resolve) => {
      this.process.onExit(({ exitCode }) => {
        clearTimeout(timer);
        // An empty write runs its callback after every earlier write was parsed.
        this.terminal.write('', () => resolve(exitCode));
      });
    });
  }

  /** Starts `taskweave <args>` on the pseudo-terminal. */
  static start(args: string[], options: PtyOptions = {}): PtyRun {
    return new PtyRun(args, options);
  }

  /** Runs to the end and returns the exit code with the final screen and the scrollback count. */
  static async run(args: string[], options: PtyOptions = {}) {
    const run = PtyRun.start(args, options);
    const code = await run.exited;
    return { code, screen: run.screen(), lines: run.lines(), text: run.text() };
  }

  /** Types keys as a person would (`\r` is Enter, `\u001b` Esc, `\u0003` Ctrl-C). */
  type(keys: string): void {
    this.process.write(keys);
  }

  /** Waits until the terminal shows `text` (`count` times in all), or fails after `timeoutMs`. */
  async waitFor(text: string, { count = 1, timeoutMs = 60_000 } = {}): Promise<void> {
    const seen = () => this.text().split(text).length - 1 >= count;
    if (seen()) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!seen()) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the terminal never showed "${text}":\n${this.text()}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  /** What the process wrote to the terminal, before the terminal applied any of it. */
  bytes(): string {
    return this.output;
  }

  /** The rows visible now, right-trimmed. */
  screen(): string[] {
    const buffer = this.terminal.buffer.active;
    return this.rows(buffer.baseY, buffer.baseY + PTY_ROWS).map((row) => row.text);
  }

  /**
   * Every row written so far (scrollback and screen) as the terminal shows it, right-trimmed,
   * trailing blank rows dropped: a line wider than the terminal takes two rows here.
   */
  lines(): string[] {
    const all = this.rows(0, this.terminal.buffer.active.length).map((row) => row.text);
    while (all.length > 0 && all[all.length - 1] === '') all.pop();
    return all;
  }

  /** Everything written so far as one text; a row that wrapped is joined to the one before it. */
  text(): string {
    const rows = this.rows(0, this.terminal.buffer.active.length);
    return rows.map((row, index) => (index > 0 && !row.wrapped ? `\n${row.text}` : row.text)).join('');
  }

  private rows(from: number, to: number): { text: string; wrapped: boolean }[] {
    const buffer = this.terminal.buffer.active;
    const rows: { text: string; wrapped: boolean }[] = [];
    for (let index = from; index < to; index++) {
      const line = buffer.getLine(index);
      if (line === undefined) break;
      rows.push({ text: line.translateToString(true), wrapped: line.isWrapped });
    }
    return rows;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
