/** ANSI styling that turns itself off when the stream is not a terminal (or NO_COLOR is set). */
export interface Style {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Styling for a stream: colours only on a TTY, never with NO_COLOR, always with FORCE_COLOR. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const enabled =
    env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' ? true : !env.NO_COLOR && !!stream.isTTY;
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/** How many columns a terminal stream has; undefined when it is not a terminal (a pipe, a file). */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY && stream.columns ? stream.columns : undefined;
}

const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPINNER_INTERVAL_MS = 80;

/** A one-line spinner for a TTY; on other streams it does nothing. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private label = '';

  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }) {}

  get active(): boolean {
    return this.timer !== undefined;
  }

  start(label: string): void {
    if (!this.stream.isTTY) return;
    this.label = label;
    if (this.timer) return;
    this.timer = setInterval(() => this.draw(), SPINNER_INTERVAL_MS);
    this.timer.unref();
    this.draw();
  }

  update(label: string): void {
    this.label = label;
  }

  /** Clears the spinner line so that normal output can follow. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write('\r\u001b[2K');
  }

  private draw(): void {
    const frame = SPINNER_FRAMES[this.frame++ % SPINNER_FRAMES.length];
    this.stream.write(`\r\u001b[2K${frame} ${spinnerLine(this.label, this.stream.columns || 80)}`);
  }
}

/**
 * A label as one line that fits the terminal beside the spinner frame. The redraw clears one
 * line only: a label holding a newline (command output) or wider than the terminal would leave
 * a copy of itself on the screen at every frame.
 */
export function spinnerLine(label: string, columns: number): string {
  const single = label.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  // Frame, space, and one column spare: a line that fills the last column wraps on some terminals.
  const width = Math.max(10, columns - 3);
  const characters = [...single];
  return characters.length <= width ? single : `${characters.slice(0, width - 1).join('')}…`;
}
