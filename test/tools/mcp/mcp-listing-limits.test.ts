import { describe, expect, it } from 'vitest';
import {
  ListingBudget,
  MAX_MCP_LISTING_BYTES,
  MAX_MCP_LISTING_PAGES,
  MAX_MCP_TOOLS,
} from '../../../src/tools/mcp/mcp-listing-limits.js';

const tool = (name: string, description = '') => ({ name, description, inputSchema: { type: 'object' } });

describe('ListingBudget', () => {
  it('takes a listing of the most tools allowed, and refuses one more', () => {
    const budget = new ListingBudget();
    const tools = Array.from({ length: MAX_MCP_TOOLS }, (_, index) => tool(`t${index}`));
    expect(() => budget.add(tools, false)).not.toThrow();
    expect(() => new ListingBudget().add([...tools, tool('one-more')], false)).toThrow(
      `its tools/list went past ${MAX_MCP_TOOLS} tools, the most taskweave takes from one server`,
    );
  });

  it('counts the bytes of the definitions over the pages', () => {
    const budget = new ListingBudget();
    const large = tool('large', 'x'.repeat(MAX_MCP_LISTING_BYTES / 2));
    budget.add([large], true);
    expect(() => budget.add([large], false)).toThrow(
      'its tools/list went past 4 MB of tool definitions, the most taskweave takes from one server',
    );
  });

  it('stops empty pages that always name a next one, and takes a last page at the limit', () => {
    const endless = new ListingBudget();
    for (let page = 1; page < MAX_MCP_LISTING_PAGES; page++) endless.add([], true);
    expect(() => endless.add([], true)).toThrow(
      `its tools/list went on for more than ${MAX_MCP_LISTING_PAGES} pages, the most taskweave reads from one server`,
    );
    const ending = new ListingBudget();
    for (let page = 1; page < MAX_MCP_LISTING_PAGES; page++) ending.add([], true);
    expect(() => ending.add([tool('last')], false)).not.toThrow();
  });
});
