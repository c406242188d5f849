/**
 * The headers every answer carries. The Content-Security-Policy lets the page load only its own
 * scripts, styles and images (and `data:` images, and `blob:` ones: the attached images it fetched
 * with its token or read from a pasted file), talk only to its own server, never be framed
 * and never submit a form elsewhere: a markdown image or link the model writes cannot make the
 * browser fetch another origin on its own, with or without a secret in its URL.
 */
export function securityHeaders(ownHost: string | undefined): Record<string, string> {
  // 'self' covers the same-origin WebSocket in current browsers; the explicit ws:// source is for
  // the ones that predate CSP 3. ownHost is a Host the access guard accepted, never a client's free text.
  const socket = ownHost === undefined ? '' : ` ws://${ownHost}`;
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      `connect-src 'self'${socket}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
