import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** The reference "everything" MCP server from the npm registry, started over stdio. */
const EVERYTHING = {
  command: process.execPath,
  args: [path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

describe('MCP tool calls on an 80×24 terminal', () => {
  it('a success shows what it returned; a failure says why, whole and between words', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-mcp-');
    const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
    await mkdir(path.join(home, 'taskweave'));
    await writeFile(
      path.join(home, 'taskweave', 'config.json'),
      JSON.stringify({ mcp: { everything: EVERYTHING } }),
    );
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        { toolCalls: [{ name: 'everything__echo', args: { message: 'hello over MCP' } }] },
        { toolCalls: [{ name: 'everything__get-sum', args: { a: 'two' } }] },
        // The server refuses this one itself: an error result from the server, not from taskweave.
        {
          toolCalls: [
            {
              name: 'everything__gzip-file-as-resource',
              args: { name: 'a.gz', data: 'ftp://example.com/x' },
            },
          ],
        },
        { text: 'Done with the tools.' },
      ],
    });
    const run = await PtyRun.run(
      ['run', '--approval', 'auto', '--model', `script:${script}`, '--cwd', workspace, 'use the tools'],
      { env: { NO_COLOR: '1', XDG_CONFIG_HOME: home } },
    );
    expect(run.code, run.text).toBe(0);
    const text = run.text;
    expect(run.lines).toContain('→ everything__echo({"message":"hello over MCP"}) ✓ Echo: hello over MCP');
    // The reason the arguments were refused, not the instruction to the model; not cut.
    expect(text.replace(/\n/g, ' ')).toContain(
      '✗ invalid arguments: a: expected number, received string; b: expected number, received undefined',
    );
    expect(text).not.toContain('Rewrite the input');
    expect(text.replace(/\n/g, ' ')).toContain(
      '✗ Error processing file ftp://example.com/x: Unsupported URL protocol for ftp://example.com/x. Only http, https, and data URLs are supported.',
    );
    expect(text).not.toMatch(/✗ error$/m);
    // Every row breaks between words: none was folded by the terminal.
    expect(text.split('\n').filter((row) => row !== '')).toEqual(run.lines.filter((row) => row !== ''));
  });
});
