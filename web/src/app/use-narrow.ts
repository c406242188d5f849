import { useSyncExternalStore } from 'react';

/** The width below which the page is laid out for a phone (app.css uses the same). */
const NARROW = '(max-width: 760px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the window is as narrow as a phone's, following it as it changes. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
}
