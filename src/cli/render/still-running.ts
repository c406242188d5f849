/** How often a long tool call on piped output says that it is still running. */
export const STILL_RUNNING_INTERVAL_MS = 15_000;
/** The environment variable that sets another interval (ms). */
export const STILL_RUNNING_ENV = 'TASKWEAVE_STILL_RUNNING_MS';
/** The last output line shown in such a line is cut to this many characters. */
const LAST_LINE_CHARS = 120;

interface Running {
  label: string;
  startedAt: number;
  lastLine: string;
  timer: NodeJS.Timeout;
}

/**
 * For piped output (a CI log), where no spinner shows that a long command is alive: every
 * interval, one line per call still running, with how long it has run and its last output line.
 */
export class StillRunning {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly print: (text: string) => void,
    private readonly intervalMs = STILL_RUNNING_INTERVAL_MS,
  ) {}

  start(callId: string, label: string): void {
    this.end(callId);
    const timer = setInterval(() => this.report(callId), this.intervalMs);
    timer.unref();
    this.running.set(callId, { label, startedAt: Date.now(), lastLine: '', timer });
  }

  /** Output of a running call: its last non-blank line is kept for the next report. */
  progress(callId: string, content: string): void {
    const entry = this.running.get(callId);
    const last = content
      .split('\n')
      .reverse()
      .find((line) => line.trim() !== '' && !/^… \d+ more lines …$/.test(line));
    if (entry && last !== undefined) entry.lastLine = last.trim();
  }

  end(callId: string): void {
    const entry = this.running.get(callId);
    if (!entry) return;
    clearInterval(entry.timer);
    this.running.delete(callId);
  }

  clear(): void {
    for (const callId of [...this.running.keys()]) this.end(callId);
  }

  private report(callId: string): void {
    const entry = this.running.get(callId);
    if (!entry) return;
    const seconds = Math.round((Date.now() - entry.startedAt) / 1000);
    const last =
      entry.lastLine === ''
        ? ''
        : ` · last output: ${entry.lastLine.length > LAST_LINE_CHARS ? `${entry.lastLine.slice(0, LAST_LINE_CHARS - 1)}…` : entry.lastLine}`;
    this.print(`… ${entry.label} still running (${seconds}s)${last}`);
  }
}
