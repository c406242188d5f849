import { useEffect, useMemo, useState } from 'react';
import { ApprovalModeControl } from '../controls/approval-mode.js';
import { SessionList } from '../sessions/session-list.js';
import { TaskBoard } from '../task-board/task-board.js';
import { SessionPage } from './session-page.js';
import { useStore } from './store-context.js';
import { useLatestSessionOnOpen } from './use-latest-session.js';
import { sessionHref, useRoute } from './use-route.js';

/** The page: a top bar (pages, connection, notifications) and the current page. */
export function App({ model }: { model: string | undefined }) {
  const route = useRoute();
  const [state, store] = useStore();
  const lastSession = useLastSession(route.page === 'session' ? route.sessionId : undefined);
  useLatestSessionOnOpen();
  // Reload the board and the session list when a run or a task moves (not on every streamed word).
  const activity = useMemo(
    () =>
      Object.values(state.views)
        .map(
          (view) =>
            `${view.runs.map((run) => run.status).join()}:${view.items.filter((i) => i.kind === 'task').length}`,
        )
        .join('|'),
    [state.views],
  );
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/">
          taskweave
        </a>
        <nav aria-label="Pages">
          {/* Back to the session last watched; "New" starts another. */}
          <a
            className="nav-link"
            href={lastSession ? sessionHref(lastSession) : '#/'}
            aria-current={route.page === 'session' && route.sessionId !== undefined ? 'page' : undefined}
          >
            Session
          </a>
          <a
            className="nav-link"
            href="#/"
            aria-label="New session"
            title="Start a new session"
            aria-current={route.page === 'session' && route.sessionId === undefined ? 'page' : undefined}
          >
            + New
          </a>
          <a className="nav-link" href="#/tasks" aria-current={route.page === 'tasks' ? 'page' : undefined}>
            Tasks
          </a>
          <a
            className="nav-link"
            href="#/sessions"
            aria-current={route.page === 'sessions' ? 'page' : undefined}
          >
            Sessions
          </a>
        </nav>
        <span className="spacer" />
        {model && (
          <span className="muted small model-name" title={model}>
            {model}
          </span>
        )}
        <ApprovalModeControl />
        <NotificationToggle />
        <span
          className={`connection connection-${state.connection}`}
          role="status"
          aria-label={`Connection: ${state.connection}`}
          title={state.connection}
        />
      </header>
      {state.connection === 'reconnecting' && (
        <div className="banner connection-lost" role="alert">
          Connection lost — reconnecting…
        </div>
      )}
      {state.errors.length > 0 && (
        <div className="banner error" role="alert">
          {state.errors.at(-1)}{' '}
          <button type="button" className="link-button" onClick={() => store.dismissErrors()}>
            Dismiss
          </button>
        </div>
      )}
      <main>
        {route.page === 'session' && <SessionPage sessionId={route.sessionId} />}
        {route.page === 'tasks' && <TaskBoard trigger={activity} />}
        {route.page === 'sessions' && <SessionList trigger={activity} />}
      </main>
    </div>
  );
}

function NotificationToggle() {
  const supported = 'Notification' in window;
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported || permission !== 'default') return null;
  return (
    <button
      type="button"
      className="link-button small notify-toggle"
      onClick={async () => setPermission(await Notification.requestPermission())}
    >
      Notify me
    </button>
  );
}

const LAST_SESSION_KEY = 'taskweave.lastSession';

/** The session this tab watched last (kept across reloads of the tab), for the "Session" link. */
function useLastSession(watching: string | undefined): string | undefined {
  const [last, setLast] = useState<string | undefined>(() => {
    try {
      return sessionStorage.getItem(LAST_SESSION_KEY) ?? undefined;
    } catch {
      return undefined;
    }
  });
  useEffect(() => {
    if (watching === undefined) return;
    setLast(watching);
    try {
      sessionStorage.setItem(LAST_SESSION_KEY, watching);
    } catch {}
  }, [watching]);
  return last;
}
