import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** How near the bottom (px) still counts as "at the bottom". */
const STICK_THRESHOLD_PX = 80;

/**
 * Keeps a scrolling element at its bottom while new content arrives, until the user scrolls up;
 * scrolling back down (or `toBottom`) sticks again. Sending a message calls `toBottom`: what the
 * user just asked for, and the run it starts, happen in sight (as Claude, ChatGPT and Cline do).
 */
export function useAutoScroll(ref: RefObject<HTMLElement | null>, content: unknown) {
  const stuck = useRef(true);
  const [away, setAway] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onScroll = () => {
      const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_THRESHOLD_PX;
      stuck.current = atBottom;
      setAway(!atBottom);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [ref]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the content changes
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && stuck.current) element.scrollTop = element.scrollHeight;
  }, [content, ref]);
  const toBottom = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    stuck.current = true;
    setAway(false);
    element.scrollTop = element.scrollHeight;
  }, [ref]);
  return { away, toBottom };
}
