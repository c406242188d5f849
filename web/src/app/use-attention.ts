import { useEffect } from 'react';

/** How fast the tab title alternates while the agent waits for the user. */
const TITLE_FLASH_MS = 1000;
const TITLE = 'taskweave';

/**
 * While the agent waits for the user (`waiting` says for what), the tab title flashes and, when
 * the user allowed it, a desktop notification says so once per request (`key`).
 */
export function useAttention(waiting: { key: string; title: string; body: string } | undefined): void {
  const key = waiting?.key;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one flash and notification per request
  useEffect(() => {
    if (!waiting) return;
    if ('Notification' in window && Notification.permission === 'granted') {
      new Notification(waiting.title, { body: waiting.body, tag: waiting.key });
    }
    let flash = false;
    const timer = setInterval(() => {
      flash = !flash;
      document.title = flash ? `❓ ${waiting.title}` : TITLE;
    }, TITLE_FLASH_MS);
    return () => {
      clearInterval(timer);
      document.title = TITLE;
    };
  }, [key]);
}
