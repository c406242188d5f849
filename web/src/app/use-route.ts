import { useEffect, useState } from 'react';

/** The pages, addressed by the URL's hash so that the server serves one page. */
export type Route = { page: 'session'; sessionId?: string } | { page: 'tasks' } | { page: 'sessions' };

/** Reads a hash: `#/s/<id>`, `#/tasks`, `#/sessions`; anything else is a new session. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const session = /^\/s\/([^/]+)$/.exec(path);
  if (session) return { page: 'session', sessionId: decodeURIComponent(session[1]!) };
  if (path === '/tasks') return { page: 'tasks' };
  if (path === '/sessions') return { page: 'sessions' };
  return { page: 'session' };
}

/** The hash of a session's page. */
export function sessionHref(sessionId: string): string {
  return `#/s/${encodeURIComponent(sessionId)}`;
}

/** The current route, following the hash. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
