import { elisionNote, headAndTailBudget } from '../text/truncate.js';

/**
 * Collects a stream that may be far longer than anyone should read, holding only its start and
 * its end in memory. `text()` gives what `truncateMiddle` would give for the whole stream: the
 * head, a note counting the characters and lines left out, and the tail.
 */
export class HeadTailCapture {
  private readonly headChars: number;
  private readonly tailChars: number;
  private head = '';
  private tail = '';
  private droppedChars = 0;
  private droppedLines = 0;
  private total = 0;

  constructor(private readonly maxChars: number) {
    ({ headChars: this.headChars, tailChars: this.tailChars } = headAndTailBudget(maxChars));
  }

  /** Adds the next piece of the stream. */
  push(chunk: string): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    this.tail += rest;
    // Trimming only once the tail is twice its budget keeps the work linear in the stream length.
    if (this.tail.length > 2 * this.maxChars) this.trimTail(this.tailChars);
  }

  /** The stream so far, shortened in the middle when it is longer than the budget. */
  text(): string {
    if (this.total <= this.maxChars) return this.head + this.tail;
    this.trimTail(this.tailChars);
    return `${this.head}\n${elisionNote(this.droppedChars, this.droppedLines)}\n${this.tail}`;
  }

  private trimTail(keep: number): void {
    const cut = this.tail.length - keep;
    if (cut <= 0) return;
    const dropped = this.tail.slice(0, cut);
    this.droppedChars += cut;
    this.droppedLines += dropped.split('\n').length - 1;
    this.tail = this.tail.slice(cut);
  }
}
