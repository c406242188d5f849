import { emitKeypressEvents } from 'node:readline';
import { wrapWords } from '../render/text-wrap.js';
import { PasteBlocks } from './paste-blocks.js';
import { layoutPrompt } from './prompt-layout.js';

/** Asks the terminal to mark pasted text (bracketed paste), and to stop marking it. */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
/** The marks around a bracketed paste (also in what KeyWatch keeps of keys typed during a run). */
export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';
/** Shift+Enter as terminals that report it send it: CSI-u (kitty, WezTerm…) and xterm's modifyOtherKeys. */
const SHIFT_ENTER_CSI_U = '[13;2u';
const MODIFIED_KEY_LEAD = '[27;2;';

/** What completing the word before the cursor offers: candidates for `text.slice(from, cursor)`. */
export interface Completion {
  from: number;
  candidates: string[];
}

/** What the user did at the prompt. */
export type PromptResult =
  /**
   * A message: `shown` as the prompt showed it (a paste as its label); `expand` puts the pasted
   * texts in place of their labels in it (or in a text made from it).
   */
  { kind: 'line'; shown: string; expand: (text: string) => string } | { kind: 'interrupt' } | { kind: 'end' };

/** One keypress as node:readline decodes it. */
interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  code?: string;
  sequence?: string;
}

/** How the editor reads and where it writes. */
export interface LineEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Completes the word before the cursor on Tab (`/commands`, `@paths`). */
  complete?: (text: string, cursor: number) => Promise<Completion | undefined>;
}

/**
 * The interactive session's prompt: a line editor over raw keys that holds a message of several
 * lines. Enter sends; `\` then Enter, Shift+Enter (where the terminal reports it) and Alt+Enter
 * start a new line; a bracketed paste stays one message (several lines show as a label);
 * Tab completes; ↑/↓ go through the history (or between lines); the usual Emacs keys edit.
 */
export class LineEditor {
  private text = '';
  private cursor = 0;
  private prompt = '';
  /** The row of the prompt's cursor below its first row, as last drawn. */
  private drawnRow = 0;
  private pasting: string | undefined;
  /** Characters of an xterm modified key (`ESC [27;2;13~`) still to come, once its lead was read. */
  private modifiedKey: string | undefined;
  private history: string[] = [];
  /** Where ↑/↓ are in the history (-1: the line being typed, kept in `draft`). */
  private historyIndex = -1;
  private draft = '';
  private readonly pastes = new PasteBlocks();
  private finish: ((result: PromptResult) => void) | undefined;
  /** Keys wait here while a completion is looked up, so that they apply in order. */
  private keys: Promise<void> = Promise.resolve();
  private readonly onKey = (text: string | undefined, key: Key | undefined) => {
    this.keys = this.keys.then(() => this.key(text, key ?? {})).catch(() => undefined);
  };

  constructor(private readonly options: LineEditorOptions) {
    emitKeypressEvents(options.input);
  }

  /**
   * Reads one message: `prefill` is put in the prompt, then `typed` (keys typed before the
   * prompt opened, lines ended by `\r`) is applied as if typed now up to its first Enter; the
   * rest of it is returned in `remaining` for the next prompt.
   */
  read(options: { prompt: string; history: string[]; prefill?: string; typed?: string }): {
    result: Promise<PromptResult>;
    remaining: string;
  } {
    const { input } = this.options;
    this.prompt = options.prompt;
    this.history = options.history;
    this.historyIndex = -1;
    this.text = options.prefill ?? '';
    this.cursor = this.text.length;
    this.drawnRow = 0;
    this.pasting = undefined;
    // A message put back to be fixed keeps its pastes.
    if (options.prefill === undefined || options.prefill === '') this.pastes.clear();
    const result = new Promise<PromptResult>((resolve) => {
      this.finish = (value) => {
        this.finish = undefined;
        input.off('keypress', this.onKey);
        // Keys typed before the next prompt wait in the terminal, unread.
        input.pause();
        resolve(value);
      };
    });
    if (input.isTTY) input.setRawMode(true);
    this.draw();
    const remaining = this.feed(options.typed ?? '');
    if (this.finish) {
      input.on('keypress', this.onKey);
      input.resume();
    }
    return { result, remaining };
  }

  /** Applies keys typed before the prompt opened, up to the first Enter; returns what is left. */
  private feed(typed: string): string {
    let index = 0;
    while (index < typed.length && this.finish) {
      if (typed.startsWith(PASTE_START, index)) {
        const end = typed.indexOf(PASTE_END, index);
        const stop = end === -1 ? typed.length : end;
        this.insert(this.pastes.insert(typed.slice(index + PASTE_START.length, stop)));
        index = end === -1 ? typed.length : end + PASTE_END.length;
        continue;
      }
      const character = typed[index] as string;
      index += 1;
      if (character === '\r') this.enter();
      else this.insert(character);
    }
    return typed.slice(index);
  }

  private async key(text: string | undefined, key: Key): Promise<void> {
    if (!this.finish) return;
    if (this.pasting !== undefined) {
      if (key.name === 'paste-end') {
        const pasted = this.pasting;
        this.pasting = undefined;
        this.insert(this.pastes.insert(pasted));
      } else
        this.pasting += key.name === 'return' || key.name === 'enter' ? '\n' : (text ?? key.sequence ?? '');
      return;
    }
    if (this.modifiedKey !== undefined) {
      this.modifiedKey += text ?? '';
      if (!this.modifiedKey.endsWith('~')) return;
      if (this.modifiedKey === '13~') this.insert('\n');
      this.modifiedKey = undefined;
      return;
    }
    if (key.name === 'paste-start') {
      this.pasting = '';
      return;
    }
    if (key.code === SHIFT_ENTER_CSI_U) return this.insert('\n');
    if (key.code === MODIFIED_KEY_LEAD) {
      this.modifiedKey = '';
      return;
    }
    if (key.ctrl) return this.control(key.name);
    switch (key.name) {
      case 'return':
        if (key.meta) return this.insert('\n');
        return this.enter();
      // `\n` sends too: a line typed before the terminal was switched to raw keys ends so.
      case 'enter':
        return this.submit();
      case 'tab':
        return this.completeWord();
      case 'backspace':
        return this.edit(this.text.slice(0, this.before()) + this.text.slice(this.cursor), this.before());
      case 'delete':
        return this.edit(this.text.slice(0, this.cursor) + this.text.slice(this.after()), this.cursor);
      case 'left':
        return this.move(this.before());
      case 'right':
        return this.move(this.after());
      case 'home':
        return this.move(this.lineStart());
      case 'end':
        return this.move(this.lineEnd());
      case 'up':
        return this.vertical(-1);
      case 'down':
        return this.vertical(1);
      case 'escape':
        return;
    }
    if (text !== undefined && !key.meta && /^[^\p{Cc}]+$/u.test(text)) this.insert(text);
  }

  private control(name: string | undefined) {
    switch (name) {
      case 'c':
        if (this.text === '') return this.end({ kind: 'interrupt' });
        // The first Ctrl-C clears what was typed, as in a shell.
        return this.edit('', 0);
      case 'd':
        if (this.text === '') return this.end({ kind: 'end' });
        return this.edit(this.text.slice(0, this.cursor) + this.text.slice(this.after()), this.cursor);
      case 'u':
        return this.edit(
          this.text.slice(0, this.lineStart()) + this.text.slice(this.cursor),
          this.lineStart(),
        );
      case 'k':
        return this.edit(this.text.slice(0, this.cursor) + this.text.slice(this.lineEnd()), this.cursor);
      case 'w': {
        const start = this.text.slice(0, this.cursor).replace(/\S+\s*$|\s+$/u, '').length;
        return this.edit(this.text.slice(0, start) + this.text.slice(this.cursor), start);
      }
      case 'a':
        return this.move(this.lineStart());
      case 'e':
        return this.move(this.lineEnd());
      case 'b':
        return this.move(this.before());
      case 'f':
        return this.move(this.after());
      case 'l':
        this.options.output.write('\u001b[2J\u001b[H');
        this.drawnRow = 0;
        return this.draw();
    }
  }

  /** Enter: sends the message, or after a `\` just before the cursor starts a new line instead. */
  private enter(): void {
    if (this.text[this.cursor - 1] !== '\\') {
      this.submit();
      return;
    }
    this.text = this.text.slice(0, this.cursor - 1) + this.text.slice(this.cursor);
    this.cursor -= 1;
    this.insert('\n');
  }

  private insert(inserted: string): void {
    this.edit(
      this.text.slice(0, this.cursor) + inserted + this.text.slice(this.cursor),
      this.cursor + inserted.length,
    );
  }

  private edit(text: string, cursor: number): void {
    this.text = text;
    this.cursor = cursor;
    this.draw();
  }

  private move(cursor: number): void {
    this.cursor = cursor;
    this.draw();
  }

  /** ↑/↓: between the lines of a message of several; else through the history. */
  private vertical(direction: -1 | 1) {
    const start = this.lineStart();
    const column = this.cursor - start;
    if (direction < 0 && start > 0) {
      const previousStart = this.text.lastIndexOf('\n', start - 2) + 1;
      return this.move(Math.min(previousStart + column, start - 1));
    }
    const end = this.lineEnd();
    if (direction > 0 && end < this.text.length) {
      const nextEnd = this.text.indexOf('\n', end + 1);
      return this.move(Math.min(end + 1 + column, nextEnd === -1 ? this.text.length : nextEnd));
    }
    const index = this.historyIndex - direction;
    if (index < -1 || index >= this.history.length) return;
    if (this.historyIndex === -1) this.draft = this.text;
    this.historyIndex = index;
    const text = index === -1 ? this.draft : (this.history[index] as string);
    this.edit(text, text.length);
  }

  private async completeWord(): Promise<void> {
    const found = await this.options.complete?.(this.text, this.cursor);
    if (!found || found.candidates.length === 0 || !this.finish) return;
    const typed = this.text.slice(found.from, this.cursor);
    const common = commonPrefix(found.candidates);
    if (found.candidates.length === 1) {
      const only = found.candidates[0] as string;
      return this.replaceWord(found.from, only.endsWith('/') ? only : `${only} `);
    }
    if (common.length > typed.length) return this.replaceWord(found.from, common);
    // Nothing more in common: the choices are listed under the prompt, which is drawn again.
    const { output } = this.options;
    this.moveToEnd();
    const rows = wrapWords(found.candidates.join('  '), (output.columns || 80) - 1);
    output.write(`\r\n${rows.join('\r\n')}\r\n`);
    this.drawnRow = 0;
    this.draw();
  }

  private replaceWord(from: number, word: string): void {
    this.edit(this.text.slice(0, from) + word + this.text.slice(this.cursor), from + word.length);
  }

  private submit(): void {
    const shown = this.text;
    this.moveToEnd();
    this.options.output.write('\r\n');
    this.end({ kind: 'line', shown, expand: this.pastes.expander() });
  }

  private end(result: PromptResult): void {
    if (result.kind !== 'line') {
      this.moveToEnd();
      this.options.output.write('\r\n');
    }
    this.finish?.(result);
  }

  /** Puts the terminal's cursor after the message (to write below it). */
  private moveToEnd(): void {
    this.cursor = this.text.length;
    this.draw();
  }

  /** Draws the prompt and the message again from the prompt's first row. */
  private draw(): void {
    const columns = this.options.output.columns || 80;
    const layout = layoutPrompt({ prompt: this.prompt, text: this.text, cursor: this.cursor, columns });
    let out = this.drawnRow > 0 ? `\u001b[${this.drawnRow}A` : '';
    out += `\r\u001b[J${layout.written}`;
    // A message that fills its last row exactly: the terminal is made to go to the next row.
    if (layout.endColumn === 0 && layout.endRow > 0) out += ' \r\u001b[K';
    const up = layout.endRow - layout.cursorRow;
    if (up > 0) out += `\u001b[${up}A`;
    out += `\u001b[${layout.cursorColumn + 1}G`;
    this.drawnRow = layout.cursorRow;
    this.options.output.write(out);
  }

  private before(): number {
    if (this.cursor === 0) return 0;
    const code = this.text.charCodeAt(this.cursor - 1);
    return code >= 0xdc00 && code <= 0xdfff && this.cursor > 1 ? this.cursor - 2 : this.cursor - 1;
  }

  private after(): number {
    if (this.cursor >= this.text.length) return this.text.length;
    const code = this.text.charCodeAt(this.cursor);
    return code >= 0xd800 && code <= 0xdbff ? this.cursor + 2 : this.cursor + 1;
  }

  private lineStart(): number {
    return this.text.lastIndexOf('\n', this.cursor - 1) + 1;
  }

  private lineEnd(): number {
    const end = this.text.indexOf('\n', this.cursor);
    return end === -1 ? this.text.length : end;
  }
}

function commonPrefix(words: string[]): string {
  let prefix = words[0] ?? '';
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
