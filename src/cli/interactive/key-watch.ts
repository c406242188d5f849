import { emitKeypressEvents } from 'node:readline';
import { PASTE_END, PASTE_START } from './line-editor.js';

/** What the keys do while a run goes on. */
export interface KeyActions {
  /** Esc. */
  onEscape: () => void;
  /** Ctrl-C (the terminal sends no SIGINT in raw mode). */
  onInterrupt: () => void;
}

/**
 * Listens for Esc and Ctrl-C on a terminal while a run goes on, in raw mode so that a key acts
 * at once without Enter and nothing typed is echoed over the run's output. Paused while a
 * question prompt reads the terminal (the prompt has the keys then). What else is typed
 * meanwhile (text, Enter, Backspace, Ctrl-U) is kept, unechoed, for the next prompt: `takeTyped`.
 */
export class KeyWatch {
  private active = false;
  private typed = '';
  /** In a bracketed paste: its lines are kept as one message (between the paste marks). */
  private pasting = false;
  private readonly onKey = (
    text: string | undefined,
    key: { name?: string; ctrl?: boolean; meta?: boolean } | undefined,
  ) => {
    if (key?.name === 'paste-start' || key?.name === 'paste-end') {
      this.pasting = key.name === 'paste-start';
      this.typed += this.pasting ? PASTE_START : PASTE_END;
    } else if (this.pasting) {
      this.typed += key?.name === 'return' || key?.name === 'enter' ? '\n' : (text ?? '');
    } else if (key?.name === 'escape') this.actions.onEscape();
    else if (key?.ctrl && key.name === 'c') this.actions.onInterrupt();
    else if (key?.ctrl && key.name === 'u') this.typed = this.typed.replace(/[^\r]*$/, '');
    else if (key?.name === 'backspace') this.typed = this.typed.replace(/[^\r]$/u, '');
    else if (key?.name === 'return' || key?.name === 'enter') this.typed += '\r';
    else if (text !== undefined && !key?.ctrl && !key?.meta && /^[^\p{Cc}]+$/u.test(text)) this.typed += text;
  };

  /**
   * What was typed while the keys were watched, lines ended by `\r` (pastes between their marks);
   * cleared by taking it.
   */
  takeTyped(): string {
    const typed = this.typed;
    this.typed = '';
    return typed;
  }

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly actions: KeyActions,
  ) {
    emitKeypressEvents(input);
  }

  start(): void {
    if (this.active || !this.input.isTTY) return;
    this.active = true;
    this.input.setRawMode(true);
    this.input.on('keypress', this.onKey);
    this.input.resume();
  }

  stop(): void {
    if (!this.active) return;
    this.active = false;
    this.input.off('keypress', this.onKey);
    this.input.setRawMode(false);
    this.input.pause();
  }
}
