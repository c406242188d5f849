import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { megabytes } from './mcp-listing-limits.js';

/** An HTTP server's reply to one request went past the size taskweave reads. */
export class McpReplyTooLargeError extends Error {
  override name = 'McpReplyTooLargeError';
}

/**
 * fetch for an MCP server reached over HTTP, whose replies to requests (the responses to POSTs,
 * JSON or an event stream) end with McpReplyTooLargeError past `limit` bytes: the SDK reads a JSON
 * reply whole and an event until its blank line, so a reply that never ends would fill memory.
 * `onTooLarge` is told at once (the SDK reports a broken event stream only as a disconnect). The
 * long-lived event stream of a GET (server notifications) is left as it is.
 */
export function limitedFetch(
  limit: number,
  onTooLarge: (error: McpReplyTooLargeError) => void,
  base: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    // A redirect is left whole: the SDK reads its Location and URL, not its body.
    const redirect = response.status >= 300 && response.status < 400;
    if (init?.method !== 'POST' || response.body === null || redirect) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > limit) {
            const error = new McpReplyTooLargeError(
              `it sent a reply larger than ${megabytes(limit)} (a reply that does not end?) and was dropped`,
            );
            controller.error(error);
            onTooLarge(error);
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
