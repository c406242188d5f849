/** The web room's face: fetching a URL safely and reading the page as markdown. */

export {
  FETCH_TIMEOUT_MS,
  type FetchedBody,
  fetchBody,
  MAX_BODY_BYTES,
  MAX_REDIRECTS,
} from './fetch-page.js';
export { WebFetchRefusal } from './guarded-request.js';
export { type PageMarkdown, pageMarkdown } from './page-markdown.js';
export { blockedAddressRange } from './public-address.js';
export { mayReachPrivate, type WebAccess } from './web-access.js';
