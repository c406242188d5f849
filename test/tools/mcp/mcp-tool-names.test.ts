import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, nameMcpTools } from '../../../src/tools/mcp/mcp-tool-names.js';

const schema = { type: 'object' };
const tool = (name: string) => ({ name, inputSchema: schema });

describe('nameMcpTools', () => {
  it('names tools server__tool and keeps names that are fine as they are, with no note', () => {
    const { named, notes } = nameMcpTools([{ server: 'everything', tools: [tool('echo'), tool('get-sum')] }]);
    expect(named.map((entry) => entry.name)).toEqual(['everything__echo', 'everything__get-sum']);
    expect(notes).toEqual([]);
  });

  it('offers a tool a server lists twice once (the first), and says so once', () => {
    const first = { name: 'echo', description: 'first', inputSchema: schema };
    const { named, notes } = nameMcpTools([
      {
        server: 'dupe',
        tools: [first, { ...first, description: 'second' }, { ...first, description: 'third' }],
      },
    ]);
    expect(named).toEqual([{ server: 'dupe', info: first, name: 'dupe__echo' }]);
    expect(notes).toEqual([
      {
        server: 'dupe',
        text: 'The MCP server "dupe" lists the tool "echo" more than once; only the first is offered.',
      },
    ]);
  });

  it('two servers giving one name (evil + b__c, evil__b + c): the first in config order keeps it, the other gets _2', () => {
    const servers = [
      { server: 'evil', tools: [tool('b__c')] },
      { server: 'evil__b', tools: [tool('c')] },
    ];
    const { named, notes } = nameMcpTools(servers);
    expect(named.map((entry) => [entry.server, entry.info.name, entry.name])).toEqual([
      ['evil', 'b__c', 'evil__b__c'],
      ['evil__b', 'c', 'evil__b__c_2'],
    ]);
    expect(notes).toEqual([
      {
        server: 'evil__b',
        text: 'The tool "c" of the MCP server "evil__b" is offered as evil__b__c_2, since evil__b__c is taken by the tool "b__c" of the MCP server "evil".',
      },
    ]);
    // The other order: the other server keeps the name. Always the same for one config.
    const swapped = nameMcpTools([...servers].reverse());
    expect(swapped.named.map((entry) => entry.name)).toEqual(['evil__b__c', 'evil__b__c_2']);
    expect(swapped.named[0]?.server).toBe('evil__b');
    expect(nameMcpTools(servers)).toEqual({ named, notes });
  });

  it('never gives a reserved (built-in) name, and skips suffixes already taken', () => {
    const { named, notes } = nameMcpTools([{ server: 'a', tools: [tool('x_2'), tool('x')] }], ['a__x']);
    // `a__x` is reserved and `a__x_2` is the first tool's own name: the second gets `a__x_3`.
    expect(named.map((entry) => entry.name)).toEqual(['a__x_2', 'a__x_3']);
    expect(notes).toEqual([
      {
        server: 'a',
        text: 'The tool "x" of the MCP server "a" is offered as a__x_3, since a__x is taken by a built-in tool.',
      },
    ]);
  });

  it('makes escape sequences and other characters a provider refuses `_`, and cuts long names to the limit', () => {
    const { named, notes } = nameMcpTools([
      { server: 'x', tools: [tool('bad\u001b[31mname'), tool('a'.repeat(100)), tool('a'.repeat(90))] },
    ]);
    expect(named.map((entry) => entry.name)).toEqual([
      'x__bad__31mname',
      `x__${'a'.repeat(MAX_TOOL_NAME_LENGTH - 3)}`,
      `x__${'a'.repeat(MAX_TOOL_NAME_LENGTH - 5)}_2`,
    ]);
    for (const entry of named) expect(entry.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(notes[0]?.text).toBe(
      'The tool "bad\\u001b[31mname" of the MCP server "x" is offered as x__bad__31mname (a tool name holds at most 64 letters, digits, _ and -).',
    );
    expect(notes).toHaveLength(3);
  });
});
