/**
 * How much a server's tool listing may hold. A server whose `tools/list` never ends (endless
 * pages, a reply that keeps coming) would otherwise fill taskweave's memory before the start
 * timeout; real servers list tens of tools, in kilobytes.
 */

/** The most tools one server may list. */
export const MAX_MCP_TOOLS = 1_000;

/** The most bytes of tool definitions (names, descriptions and schemas, as JSON) one server may list. */
export const MAX_MCP_LISTING_BYTES = 4 * 1024 * 1024;

/** The most pages a listing may take (a server may send empty pages with a cursor forever). */
export const MAX_MCP_LISTING_PAGES = 100;

/**
 * The largest message (one line) a stdio server may send, tool results included: the SDK's
 * transport holds a line in memory until its newline comes, and gives up past this size.
 */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A server's tool listing went past one of the limits. */
export class McpListingTooLargeError extends Error {
  override name = 'McpListingTooLargeError';
}

/** Counts a listing's pages, tools and bytes as they come; throws once one is past its limit. */
export class ListingBudget {
  private pages = 0;
  private tools = 0;
  private bytes = 0;

  /**
   * Counts one page of tools (`more`: the server says another page follows); throws
   * McpListingTooLargeError when the listing is now too large.
   */
  add(tools: readonly unknown[], more: boolean): void {
    this.pages += 1;
    this.tools += tools.length;
    this.bytes += Buffer.byteLength(JSON.stringify(tools));
    if (this.tools > MAX_MCP_TOOLS)
      throw new McpListingTooLargeError(
        `its tools/list went past ${MAX_MCP_TOOLS} tools, the most taskweave takes from one server`,
      );
    if (this.bytes > MAX_MCP_LISTING_BYTES)
      throw new McpListingTooLargeError(
        `its tools/list went past ${megabytes(MAX_MCP_LISTING_BYTES)} of tool definitions, the most taskweave takes from one server`,
      );
    if (more && this.pages >= MAX_MCP_LISTING_PAGES)
      throw new McpListingTooLargeError(
        `its tools/list went on for more than ${MAX_MCP_LISTING_PAGES} pages, the most taskweave reads from one server`,
      );
  }
}

/** A size in MB, as the messages say it. */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
