import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** The reference "everything" MCP server from the npm registry, started over stdio. */
const EVERYTHING = {
  command: process.execPath,
  args: [path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

async function setup(turns: unknown[], config: unknown) {
  const workspace = await tempWorkspaceRoot('taskweave-mcp-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
  await mkdir(path.join(home, 'taskweave'));
  await writeFile(path.join(home, 'taskweave', 'config.json'), JSON.stringify(config));
  return {
    workspace,
    model: `script:${await writeScript(scripts, { turns })}`,
    env: { XDG_CONFIG_HOME: home },
  };
}

/** The pids of the processes whose command line contains `text`. */
function processesMatching(text: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', text], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const call = (name: string, args: unknown) => ({ name, args });

/** The pids of the processes whose parent is `pid` and whose command line contains `text`. */
function childrenMatching(pid: number, text: string): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', text], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe('MCP servers (the reference "everything" server over stdio)', () => {
  it('offers their tools as server__tool, calls them through the tool wrapper, and stops them with the run', async () => {
    const marker = `taskweave-mcp-marker-${process.pid}-${Date.now()}`;
    let runningDuringTheRun: number[] = [];
    const { workspace, model, env } = await setup(
      [
        { toolCalls: [call('everything__echo', { message: 'hello over MCP' })] },
        { toolCalls: [call('everything__get-sum', { a: 2, b: 40 })] },
        { toolCalls: [call('everything__get-sum', { a: 'two' })] },
        { text: 'The sum is 42.' },
      ],
      // A marker argument (the server ignores it) to find this test's server process afterwards.
      {
        mcp: {
          everything: { ...EVERYTHING, args: [...EVERYTHING.args, marker] },
          broken: { command: '/nonexistent/mcp-server' },
        },
      },
    );
    const run = await runCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'add'],
      {
        env,
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (runningDuringTheRun.length === 0 && chunk.toString().includes('"tool_complete"'))
              runningDuringTheRun = processesMatching(marker);
          });
        },
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events).toContainEqual(
      expect.objectContaining({
        update_type: 'agent_note',
        content: expect.stringMatching(
          /The MCP server "broken" failed to start: spawn \/nonexistent\/mcp-server ENOENT\. The run goes on without its tools\./,
        ),
      }),
    );
    const results = events.filter((event) => event.type === 'tool_complete' || event.type === 'tool_error');
    expect(results[0]).toMatchObject({
      type: 'tool_complete',
      name: 'everything__echo',
      result: 'Echo: hello over MCP',
    });
    expect(results[1]).toMatchObject({
      type: 'tool_complete',
      name: 'everything__get-sum',
      result: expect.stringContaining('42'),
    });
    // Invalid arguments are caught by the wrapper from the server's JSON Schema, before the call.
    expect(results[2]).toMatchObject({
      type: 'tool_error',
      name: 'everything__get-sum',
      error: expect.stringMatching(/^The everything__get-sum tool was called with invalid arguments:/),
    });
    expect(results[0]).toHaveProperty('duration_ms');
    // The server ran during the run and ended with it: no process with the marker is left.
    expect(runningDuringTheRun).toHaveLength(1);
    expect(processesMatching(marker)).toEqual([]);
  });

  it('in ask mode an MCP tool needs approval (exit 4 without a terminal) unless the allow list names it', async () => {
    const turns = [{ toolCalls: [call('everything__echo', { message: 'hi' })] }, { text: 'done' }];
    const asked = await setup(turns, { mcp: { everything: EVERYTHING } });
    const denied = await runCli(['run', '--model', asked.model, '--cwd', asked.workspace, 'echo'], {
      env: asked.env,
    });
    expect(denied.code, denied.stdout + denied.stderr).toBe(4);
    expect(denied.stdout).toContain(
      'The call of everything__echo needs approval and no one can give it here (no terminal). Run with --approval auto or add "everything__echo" to "allow" in the taskweave config.',
    );
    const allowed = await setup(turns, { mcp: { everything: EVERYTHING }, allow: ['everything__*'] });
    const run = await runCli(['run', '--model', allowed.model, '--cwd', allowed.workspace, 'echo'], {
      env: allowed.env,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/→ everything__echo\(.*\) ✓/);
  });

  it('a server that crashes mid-run: its calls say so, and the run goes on without it', async () => {
    const { workspace, model, env } = await setup(
      [
        { toolCalls: [call('everything__echo', { message: 'before the crash' })] },
        // The pause lets the test kill the server between the two calls.
        { latencyMs: 1500, toolCalls: [call('everything__echo', { message: 'after the crash' })] },
        {
          when: 'is not running any more',
          toolCalls: [call('write_file', { path: 'still-working.txt', content: 'yes\n' })],
        },
        { text: 'Went on without the MCP server.' },
      ],
      { mcp: { everything: EVERYTHING } },
    );
    let killed: number[] = [];
    const run = await runCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'echo'],
      {
        env,
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (killed.length > 0 || !chunk.toString().includes('"tool_complete"')) return;
            killed = childrenMatching(child.pid ?? 0, 'server-everything');
            for (const pid of killed) process.kill(pid, 'SIGKILL');
          });
        },
      },
    );
    expect(killed).toHaveLength(1);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    const errors = events.filter((event) => event.type === 'tool_error');
    expect(errors).toEqual([
      expect.objectContaining({
        name: 'everything__echo',
        display: 'server stopped',
        error: expect.stringMatching(
          /^The MCP server "everything" is not running any more \(its connection closed/,
        ),
      }),
    ]);
    expect(events.at(-1)).toMatchObject({
      status: 'completed',
      final_answer: 'Went on without the MCP server.',
    });
  });
});

describe('taskweave mcp list', () => {
  it('shows each configured server with its tools, and the servers that fail (exit 1)', async () => {
    const { workspace, env } = await setup([], {
      mcp: { everything: EVERYTHING, broken: { command: '/nonexistent/x' } },
    });
    const run = await runCli(['mcp', 'list', '-C', workspace], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^everything \(stdio: .*server-everything\/dist\/index\.js stdio\)\n {2}✓ \d+ tools\n/,
    );
    expect(run.stdout).toContain('  everything__echo — Echoes back the input string');
    expect(run.stdout).toContain(
      'broken (stdio: /nonexistent/x)\n  ✗ The MCP server "broken" failed to start',
    );
    // Listing runs nothing: no "the run goes on" after the failure.
    expect(run.stdout).toMatch(
      /✗ The MCP server "broken" failed to start: spawn \/nonexistent\/x ENOENT\.\n/,
    );
    expect(run.stdout).not.toContain('The run goes on');
    const none = await setup([], {});
    const empty = await runCli(['mcp', 'list', '-C', none.workspace], { env: none.env });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No MCP servers are configured');
  });
});
