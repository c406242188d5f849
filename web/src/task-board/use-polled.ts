import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Loads data now, again every `intervalMs` and whenever `trigger` changes (an event that may have
 * changed it); `reload` loads at once. The last error is kept for showing.
 */
export function usePolled<T>(load: () => Promise<T>, options: { intervalMs: number; trigger?: unknown }) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(async () => {
    try {
      setData(await loadRef.current());
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the trigger only says when to load again
  useEffect(() => {
    reload();
  }, [reload, options.trigger]);
  useEffect(() => {
    const timer = setInterval(reload, options.intervalMs);
    return () => clearInterval(timer);
  }, [reload, options.intervalMs]);
  return { data, error, reload };
}
