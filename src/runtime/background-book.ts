import { Journal } from '../agent/run/journal.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/ports.js';
import { BackgroundCommands, DEFAULT_BACKGROUND_MAX } from '../tools/background-commands.js';

/**
 * The background commands of every session this process runs, one BackgroundCommands each,
 * made when a session's first run starts. Their events go to the session's log like a run's.
 * Closing the book (the runtime closes: `taskweave run` ends, the interactive session quits, the
 * server shuts down) stops every command but those the user chose to keep.
 */
export class BackgroundBook {
  private readonly sessions = new Map<string, { commands: BackgroundCommands; journal: Journal }>();
  /** How many commands each session may run at once (config `background.max`). */
  max = DEFAULT_BACKGROUND_MAX;

  constructor(private readonly options: { store: Store; bus: EventBus }) {}

  /** The session's background commands (made on first use). */
  forSession(sessionId: string): BackgroundCommands {
    const known = this.sessions.get(sessionId);
    if (known) return known.commands;
    const journal = new Journal({ sessionId, store: this.options.store, bus: this.options.bus });
    const commands = new BackgroundCommands({
      max: this.max,
      emit: (runId, payload) => {
        journal.emit(runId, payload).catch(() => {});
      },
    });
    this.sessions.set(sessionId, { commands, journal });
    return commands;
  }

  /** The session's background commands if it has any (without making them). */
  existing(sessionId: string): BackgroundCommands | undefined {
    return this.sessions.get(sessionId)?.commands;
  }

  /** Stops every session's commands but the kept ones; resolves once they ended. */
  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    await Promise.all(sessions.map(({ commands }) => commands.close()));
    // Their end events are written before the store closes.
    await Promise.all(sessions.map(({ journal }) => journal.settled()));
  }
}
