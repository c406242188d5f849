/** Link addresses an export keeps as links; any other (`javascript:`, `data:`, `file:`…) stays text. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/** Whether an export may keep this address as a link (http(s) and mailto only). */
export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}
