import { useEffect } from 'react';
import { api } from '../connection/api.js';
import { sessionHref } from './use-route.js';

/**
 * The page opened at its bare address (the URL `taskweave serve` printed, after a restart, say)
 * shows the session last active in the workspace rather than an empty new one. `#/` (the "+ New"
 * link) stays a new session; a route chosen meanwhile is left alone.
 */
export function useLatestSessionOnOpen(): void {
  useEffect(() => {
    if (window.location.hash !== '') return;
    let live = true;
    api.sessions(1).then(
      ({ sessions }) => {
        const latest = sessions[0];
        // Replaced, not pushed: Back does not return to an empty page.
        if (live && latest && window.location.hash === '') window.location.replace(sessionHref(latest.id));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
}
