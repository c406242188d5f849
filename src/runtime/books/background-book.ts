import { Journal } from '../../agent/index.js';
import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/ports.js';
import { BackgroundCommands, DEFAULT_BACKGROUND_MAX } from '../../tools/background/index.js';

interface SessionBackground {
  commands: BackgroundCommands;
  /** The journal of the session's run going now, if one is. */
  run?: Journal;
  /** Writes the events that come while no run of the session goes. */
  idle: Journal;
}

/**
 * The background commands of every session this process runs, one BackgroundCommands each,
 * made when a session's first run starts. Their events go to the session's log like a run's.
 * Closing the book (the runtime closes: `taskweave run` ends, the interactive session quits, the
 * server shuts down) stops every command but those the user chose to keep.
 */
export class BackgroundBook {
  private readonly sessions = new Map<string, SessionBackground>();
  /** How many commands each session may run at once (config `background.max`). */
  max = DEFAULT_BACKGROUND_MAX;

  constructor(private readonly options: { store: Store; bus: EventBus }) {}

  /** The session's background commands (made on first use). */
  forSession(sessionId: string): BackgroundCommands {
    return this.session(sessionId).commands;
  }

  /**
   * While a run of the session is going, its journal writes the background events too (two
   * writers of one session would each think they knew its next seq); returns the detach.
   */
  attach(sessionId: string, journal: Journal): () => void {
    const session = this.session(sessionId);
    session.run = journal;
    return () => {
      if (session.run !== journal) return;
      session.run = undefined;
      // The run wrote events meanwhile: a fresh journal learns the session's next seq again.
      session.idle = this.journal(sessionId);
    };
  }

  private session(sessionId: string): SessionBackground {
    const known = this.sessions.get(sessionId);
    if (known) return known;
    const session: SessionBackground = {
      idle: this.journal(sessionId),
      commands: new BackgroundCommands({
        max: this.max,
        emit: (runId, payload) => {
          (session.run ?? session.idle).emit(runId, payload).catch(() => {});
        },
      }),
    };
    this.sessions.set(sessionId, session);
    return session;
  }

  private journal(sessionId: string): Journal {
    return new Journal({ sessionId, store: this.options.store, bus: this.options.bus });
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
    await Promise.all(sessions.map(({ run, idle }) => (run ?? idle).settled()));
  }
}
