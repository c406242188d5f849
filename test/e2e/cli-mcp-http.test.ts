import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** The reference "everything" MCP server from the npm registry, in its streamable HTTP mode. */
const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const START_TIMEOUT_MS = 15_000;

const started: ChildProcess[] = [];
const proxies: ReturnType<typeof createHttpServer>[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const proxy of proxies.splice(0)) proxy.close();
});

/** A port free on 127.0.0.1 now (the server takes its port from PORT and cannot be asked for 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `server-everything streamableHttp` on a free port; resolves with its /mcp URL once it listens. */
async function startHttpServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the MCP server did not start:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the MCP server exited with ${code}:\n${output}`));
    });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/**
 * A pass-through proxy on 127.0.0.1 in front of `target` that records the headers of each
 * request: the proof that the config's `headers` are sent.
 */
async function recordingProxy(target: string): Promise<{ url: string; headers: Record<string, unknown>[] }> {
  const upstream = new URL(target);
  const headers: Record<string, unknown>[] = [];
  const proxy = createHttpServer((incoming, outgoing) => {
    headers.push({ ...incoming.headers, method: incoming.method });
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxies.push(proxy);
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}${upstream.pathname}`, headers };
}

async function setup(turns: unknown[], config: unknown) {
  const workspace = await tempWorkspaceRoot('taskweave-mcp-http-');
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

const call = (name: string, args: unknown) => ({ name, args });

describe('MCP servers over streamable HTTP (the reference "everything" server on 127.0.0.1)', () => {
  it('offers and calls their tools like a stdio server, sending the configured headers; mcp list shows them', async () => {
    const server = await startHttpServer();
    const proxy = await recordingProxy(server.url);
    const { workspace, model, env } = await setup(
      [
        { toolCalls: [call('remote__echo', { message: 'hello over HTTP' })] },
        { toolCalls: [call('remote__get-sum', { a: 2, b: 40 })] },
        { text: 'The sum is 42.' },
      ],
      { mcp: { remote: { url: proxy.url, headers: { Authorization: 'Bearer test-token' } } } },
    );
    const run = await runCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'add'],
      {
        env,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const results = parseJsonLines(run.stdout).filter(
      (event) => event.type === 'tool_complete' || event.type === 'tool_error',
    );
    expect(results).toEqual([
      expect.objectContaining({
        type: 'tool_complete',
        name: 'remote__echo',
        result: 'Echo: hello over HTTP',
      }),
      expect.objectContaining({
        type: 'tool_complete',
        name: 'remote__get-sum',
        result: expect.stringContaining('42'),
      }),
    ]);

    expect(proxy.headers.length).toBeGreaterThan(2);
    for (const sent of proxy.headers) expect(sent.authorization).toBe('Bearer test-token');
    // The run ended its session on the server (DELETE), as a stdio server's process is ended.
    expect(proxy.headers.at(-1)?.method).toBe('DELETE');

    const list = await runCli(['mcp', 'list', '-C', workspace], { env });
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^remote \\(http: ${proxy.url.replaceAll('.', '\\.')}\\)\\n {2}✓ \\d+ tools\\n`),
    );
    expect(list.stdout).toContain('  remote__echo — Echoes back the input string');
  });

  it('a server that cannot be reached, or stops mid-run: a clear message, and the run goes on without it', async () => {
    const server = await startHttpServer();
    const unreachable = `http://127.0.0.1:${await freePort()}/mcp`;
    const { workspace, model, env } = await setup(
      [
        { toolCalls: [call('remote__echo', { message: 'before the stop' })] },
        // The pause lets the test stop the server between the two calls.
        { latencyMs: 1500, toolCalls: [call('remote__echo', { message: 'after the stop' })] },
        { toolCalls: [call('write_file', { path: 'still-working.txt', content: 'yes\n' })] },
        { text: 'Went on without the MCP server.' },
      ],
      { mcp: { remote: { url: server.url }, gone: { url: unreachable } } },
    );
    let stopped = false;
    const run = await runCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'echo'],
      {
        env,
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (stopped || !chunk.toString().includes('"tool_complete"')) return;
            stopped = true;
            server.child.kill('SIGKILL');
          });
        },
      },
    );
    expect(stopped).toBe(true);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events).toContainEqual(
      expect.objectContaining({
        update_type: 'agent_note',
        content: expect.stringMatching(
          /The MCP server "gone" failed to start: fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\. The run goes on without its tools\./,
        ),
      }),
    );
    expect(events.filter((event) => event.type === 'tool_error')).toEqual([
      expect.objectContaining({
        name: 'remote__echo',
        display: 'server stopped',
        error: expect.stringMatching(
          /^The MCP server "remote" is not running any more \(http:\/\/127\.0\.0\.1:\d+\/mcp cannot be reached any more: fetch failed \(connect ECONNREFUSED/,
        ),
      }),
    ]);
    expect(events.at(-1)).toMatchObject({
      status: 'completed',
      final_answer: 'Went on without the MCP server.',
    });
  });
});
