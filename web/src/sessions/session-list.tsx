import { formatUsage, formatWhen } from '../chat/format.js';
import { api } from '../connection/api.js';
import { usePolled } from '../task-board/use-polled.js';

const SESSIONS_REFRESH_MS = 5000;

/** Past sessions, most recently active first: goal, status, when, tokens; opening one replays it. */
export function SessionList({ trigger }: { trigger: unknown }) {
  const { data, error } = usePolled(() => api.sessions(), { intervalMs: SESSIONS_REFRESH_MS, trigger });
  return (
    <section className="page sessions" aria-label="Sessions">
      <h1>Sessions</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {data === undefined ? (
        <p className="muted">Loading…</p>
      ) : data.sessions.length === 0 ? (
        <p className="muted">No sessions yet.</p>
      ) : (
        <ul className="session-list">
          {data.sessions.map((session) => (
            <li key={session.id}>
              <a className="session-row" href={`#/s/${encodeURIComponent(session.id)}`}>
                <span className="session-title">{session.title || session.goal}</span>
                <span className={`state-chip status-${session.status}`}>{session.status}</span>
                <span className="muted small">
                  {formatWhen(session.updated_at)} · {session.run_count} run
                  {session.run_count === 1 ? '' : 's'} ·{' '}
                  {formatUsage({
                    input: session.input_tokens,
                    output: session.output_tokens,
                    ...(session.cost === null ? {} : { cost: session.cost }),
                  })}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
