import type { ServerEvent } from '../../events/registry.js';
import type { Store } from '../../store/ports.js';
import type { Run, Session } from '../../store/rows.js';
import type { StoredMessage } from '../../store/session-log.js';
import type { DayUsage } from '../../store/usage-log.js';
import { RuntimeInputError } from '../setup/errors.js';
import { asUserError } from '../setup/open-store.js';
import { listed, type SessionSummary, summarize } from './session-summary.js';
import { runsSpending } from './spending.js';

export type { SessionSummary } from './session-summary.js';

/** The word that names the most recently active session. */
export const LAST_SESSION = 'last';

/** A whole session: its runs, its conversation and (when asked) its event log. */
export interface SessionDetail {
  session: Session;
  runs: Run[];
  messages: StoredMessage[];
  events?: ServerEvent[];
}

/** Reading the sessions of a workspace: lists, one session whole, its event log. */
export class SessionBook {
  constructor(private readonly store: Store) {}

  /** Sessions, most recently active first. */
  async list(options: { limit?: number } = {}): Promise<SessionSummary[]> {
    const sessions = await this.store.sessions.listSessions(options);
    const summaries = await Promise.all(
      sessions.map(async (session) => summarize(session, await runsSpending(this.store, session.id))),
    );
    return summaries.filter(listed);
  }

  /** The session a user means: `last`, a full id or a unique prefix of one. */
  async find(input: string): Promise<Session> {
    if (input === LAST_SESSION) {
      const last = await this.store.sessions.lastSession();
      if (last === undefined)
        throw new RuntimeInputError('There are no sessions yet: taskweave run "<goal>" starts one.');
      return last;
    }
    const id = await asUserError(() => this.store.sessions.resolveId(input));
    const session = await this.store.sessions.getSession(id);
    if (session === undefined)
      throw new RuntimeInputError(`There is no session with the id ${input}.`, { code: 'not_found' });
    return session;
  }

  /** A session with its runs and messages, and its events when asked. */
  async detail(input: string, options: { events?: boolean } = {}): Promise<SessionDetail> {
    const session = await this.find(input);
    const [runs, messages] = await Promise.all([
      runsSpending(this.store, session.id),
      this.store.sessions.messages(session.id),
    ]);
    const events = options.events ? await this.store.sessions.events(session.id) : undefined;
    return { session, runs, messages, ...(events === undefined ? {} : { events }) };
  }

  /** Tokens and cost of the runs started since `since` (ms), per local day, the latest first. */
  usageByDay(since: number): Promise<DayUsage[]> {
    return this.store.usage.byDay(since);
  }

  /** A session a user means (see `find`) as a list shows it. */
  async summary(input: string): Promise<SessionSummary> {
    const session = await this.find(input);
    return summarize(session, await runsSpending(this.store, session.id));
  }

  /** The logged events of a session after a seq. */
  events(sessionId: string, afterSeq?: number): Promise<ServerEvent[]> {
    return this.store.sessions.events(sessionId, { afterSeq });
  }

  /** The stored bytes of these images by hash (for an export that embeds them); unknown ones are left out. */
  async imageBytes(hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
    const stored = await Promise.all(hashes.map((hash) => this.store.images.get(hash)));
    return new Map(stored.flatMap((image) => (image ? [[image.record.hash, image.bytes] as const] : [])));
  }
}
