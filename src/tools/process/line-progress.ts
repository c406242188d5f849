/** How often progress is reported at most while output streams in. */
export const PROGRESS_INTERVAL_MS = 250;
/** The most lines one progress report carries; older lines of a burst are counted, not sent. */
export const PROGRESS_MAX_LINES = 20;
/** Progress lines longer than this are shortened: they are for a glance, not for reading. */
const PROGRESS_MAX_LINE_CHARS = 400;

/**
 * Turns a stream of output into throttled progress reports of whole lines: at most one report
 * per interval, carrying the latest lines, so a chatty command does not flood the UI.
 */
export class LineProgress {
  private partial = '';
  private pending: string[] = [];
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly report: (message: string) => void) {}

  /** Adds output; complete lines are reported at the next tick of the throttle. */
  push(chunk: string): void {
    const pieces = (this.partial + chunk).split('\n');
    this.partial = pieces.pop() ?? '';
    // Output without line breaks (a progress bar) would otherwise never be reported.
    if (this.partial.length > PROGRESS_MAX_LINE_CHARS) {
      pieces.push(this.partial);
      this.partial = '';
    }
    for (const piece of pieces) this.add(piece);
    if (this.pending.length > 0 && this.timer === undefined) {
      this.timer = setTimeout(() => this.reportPending(), PROGRESS_INTERVAL_MS);
    }
  }

  /** Reports whatever is pending, the unfinished last line included, and stops the throttle. */
  flush(): void {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
    this.reportPending();
  }

  /** A tick of the throttle reports complete lines only: the unfinished one may still grow. */
  private reportPending(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const skippedNote = this.skipped > 0 ? [`… ${this.skipped} more lines …`] : [];
    this.report([...skippedNote, ...this.pending].join('\n'));
    this.pending = [];
    this.skipped = 0;
  }

  private add(rawLine: string): void {
    // A carriage return redraws the line in a terminal; only what was drawn last is visible.
    const withoutBreak = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const line = withoutBreak.slice(withoutBreak.lastIndexOf('\r') + 1);
    this.pending.push(
      line.length > PROGRESS_MAX_LINE_CHARS ? `${line.slice(0, PROGRESS_MAX_LINE_CHARS)}…` : line,
    );
    if (this.pending.length > PROGRESS_MAX_LINES) {
      this.pending.shift();
      this.skipped++;
    }
  }
}
