import type { Runtime } from '../../runtime/index.js';
import type { Style } from '../render/terminal.js';

/** What the interactive session exposes to its slash commands. */
export interface SessionState {
  runtime: Runtime;
  style: Style;
  say: (text: string) => void;
  /** The session the next goal continues (undefined: the next goal starts one). */
  sessionId: string | undefined;
  /** Clears the terminal. */
  clearScreen: () => void;
  /** The terminal's width, when known. */
  columns?: () => number | undefined;
}

/** A slash command: what it takes, what it does; `quit` ends the session. */
export interface SlashCommand {
  usage: string;
  help: string;
  /** Returns (or resolves to) 'quit' to end the session. */
  run: (state: SessionState, argument: string) => unknown;
}
