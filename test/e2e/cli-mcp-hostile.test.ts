import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_START_TIMEOUT_MS } from '../../src/tools/mcp/mcp-servers.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** A hostile MCP server over stdio (the official SDK's server, a hostile tool listing). */
const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-mcp-server.mjs', import.meta.url));
const hostile = (mode: 'colliding' | 'endless' | 'many-pages' | 'plain') => ({
  command: process.execPath,
  args: [HOSTILE, mode],
});

async function setup(config: unknown, turns: unknown[] = []) {
  const workspace = await tempWorkspaceRoot('taskweave-mcp-hostile-');
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
  await mkdir(path.join(home, 'taskweave'));
  await writeFile(path.join(home, 'taskweave', 'config.json'), JSON.stringify(config));
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}`, env: { XDG_CONFIG_HOME: home } };
}

/** Watches a process's peak resident memory (VmHWM, in MB) while it runs. */
function watchPeakMemory(pid: number): { peakMb: () => number; stop: () => void } {
  let peakKb = 0;
  const read = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // It has exited.
    }
  };
  const timer = setInterval(read, 25);
  return { peakMb: () => peakKb / 1024, stop: () => clearInterval(timer) };
}

const ESCAPE_OR_BELL = /[\u001b\u0007\u009b\u009d]/;

describe('an MCP server whose tool names collide or carry escape sequences', () => {
  it('mcp list prints no escape sequence of theirs and says how names were made unique (exit 0)', async () => {
    const { workspace, env } = await setup({
      mcp: { evil: hostile('colliding'), evil__b: hostile('colliding') },
    });
    const list = await runCli(['mcp', 'list', '-C', workspace], { env });
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).not.toMatch(ESCAPE_OR_BELL);
    expect(list.stdout).toContain('evil__c — Plain c: copiedred');
    expect(list.stdout).toContain(
      '  ! The MCP server "evil" lists the tool "echo" more than once; only the first is offered.\n',
    );
    expect(list.stdout).toContain(
      '  ! The tool "c" of the MCP server "evil__b" is offered as evil__b__c_2, since evil__b__c is taken by the tool "b__c" of the MCP server "evil".\n',
    );
    const names = [...list.stdout.matchAll(/^ {2}(\S+) — /gm)].map((match) => match[1]);
    // Per server, in its listing's order.
    expect(names).toEqual([
      'evil__echo',
      'evil__b__c',
      'evil__c',
      'evil__bad__31mname',
      'evil__b__echo',
      'evil__b__b__c',
      'evil__b__c_2',
      'evil__b__bad__31mname',
    ]);
    const json = await runCli(['mcp', 'list', '--json', '-C', workspace], { env });
    const listed = JSON.parse(json.stdout) as { name: string; tools: { name: string }[] }[];
    expect(listed.map((server) => server.tools.length)).toEqual([4, 4]);
  }, 60_000);

  it('a run works with them: each tool once under its own name, the changes noted once (exit 0)', async () => {
    const { workspace, model, env } = await setup(
      { mcp: { evil: hostile('colliding'), evil__b: hostile('colliding') } },
      [
        {
          toolCalls: [
            { name: 'evil__echo', args: { text: 'one' } },
            { name: 'evil__b__c', args: { text: 'two' } },
            { name: 'evil__b__c_2', args: { text: 'three' } },
          ],
        },
        { text: 'Called them.' },
      ],
    );
    const run = await runCli(
      ['run', '--approval', 'auto', '--json', '--model', model, '--cwd', workspace, 'call them'],
      { env },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    const results = events.flatMap((event) =>
      event.type === 'tool_complete' ? [[event.name, event.result]] : [],
    );
    // Each name reaches the tool it stands for: evil__b__c is evil's b__c, evil__b__c_2 is evil__b's c.
    expect(results).toEqual([
      ['evil__echo', 'echo: {"text":"one"}'],
      ['evil__b__c', 'b__c: {"text":"two"}'],
      ['evil__b__c_2', 'c: {"text":"three"}'],
    ]);
    const notes = events.flatMap((event) =>
      event.type === 'agent_update' && event.update_type === 'agent_note' ? [event.content] : [],
    );
    expect(notes.filter((note) => note.includes('more than once'))).toHaveLength(2);
    expect(notes).toContain(
      'The tool "c" of the MCP server "evil__b" is offered as evil__b__c_2, since evil__b__c is taken by the tool "b__c" of the MCP server "evil".',
    );
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'completed' });
  }, 60_000);
});

/** Runs the CLI, timing it and watching its peak memory. */
async function measuredRun(args: string[], env: NodeJS.ProcessEnv) {
  let memory: ReturnType<typeof watchPeakMemory> | undefined;
  const started = Date.now();
  const result = await runCli(args, {
    env,
    timeoutMs: 90_000,
    onSpawn: (child) => {
      memory = watchPeakMemory(child.pid ?? 0);
    },
  });
  memory?.stop();
  return { ...result, elapsed: Date.now() - started, peakMb: memory?.peakMb() ?? 0 };
}

describe('an MCP server whose tools/list never ends', () => {
  it('is stopped with a clear error within seconds and bounded memory; the other servers work', async () => {
    const turns = [{ toolCalls: [{ name: 'good__echo', args: { text: 'still here' } }] }, { text: 'Done.' }];
    const runArgs = (workspace: string, model: string) => [
      'run',
      '--approval',
      'auto',
      '--json',
      '--model',
      model,
      '--cwd',
      workspace,
      'use the good one',
    ];
    // The same run with the good server alone: what starting the CLI and a server costs on this
    // machine now (tests share it), so that only the hostile servers' extra time is measured.
    const alone = await setup({ mcp: { good: hostile('plain') } }, turns);
    const baseline = await measuredRun(runArgs(alone.workspace, alone.model), alone.env);
    expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
    const { workspace, model, env } = await setup(
      {
        mcp: {
          endless: hostile('endless'),
          pages: hostile('many-pages'),
          good: hostile('plain'),
        },
      },
      turns,
    );
    const run = await measuredRun(runArgs(workspace, model), env);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    const notes = events.flatMap((event) =>
      event.type === 'agent_update' && event.update_type === 'agent_note' ? [event.content] : [],
    );
    expect(notes).toContain(
      'The MCP server "endless" failed to start: it sent a message larger than 10 MB (a reply that does not end?) and was stopped. The run goes on without its tools.',
    );
    expect(notes).toContain(
      'The MCP server "pages" failed to start: its tools/list went past 1000 tools, the most taskweave takes from one server. The run goes on without its tools.',
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_complete',
        name: 'good__echo',
        result: 'echo: {"text":"still here"}',
      }),
    );
    // Not the start timeout: each listing is cut as soon as it is too large (seconds, under load).
    expect(run.elapsed - baseline.elapsed).toBeLessThan(MCP_START_TIMEOUT_MS / 2);
    expect(run.peakMb).toBeGreaterThan(0);
    expect(run.peakMb).toBeLessThan(300);
  }, 180_000);
});

const httpServers: Server[] = [];
afterEach(() => {
  for (const server of httpServers.splice(0)) server.close();
});

/**
 * An MCP server over streamable HTTP on 127.0.0.1 that completes the handshake and answers
 * tools/list with a reply that never ends: a JSON body, or one event of an event stream that
 * never gets its blank line. Resolves with its URL.
 */
async function endlessHttpServer(
  kind: 'json' | 'event-stream',
): Promise<{ url: string; cutAfterMs: () => number | undefined }> {
  let cutAfterMs: number | undefined;
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const message = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { protocolVersion?: string };
      };
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'endless-http', version: '1.0.0' },
            },
          }),
        );
        return;
      }
      response.writeHead(200, {
        'content-type': kind === 'json' ? 'application/json' : 'text/event-stream',
      });
      response.write(
        `${kind === 'json' ? '' : 'event: message\ndata: '}{"jsonrpc":"2.0","id":${message.id},"result":{"tools":[`,
      );
      const chunk = Buffer.from('{"name":"t","inputSchema":{"type":"object"}},'.repeat(2000));
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      const listedAt = Date.now();
      // The client stopped reading: how long after the request it cut the reply.
      response.on('close', () => {
        cutAfterMs = Date.now() - listedAt;
        response.removeAllListeners('drain');
      });
      pump();
    });
  });
  httpServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`,
    cutAfterMs: () => cutAfterMs,
  };
}

describe('an MCP server over HTTP whose tools/list reply never ends', () => {
  it('is dropped with a clear error within seconds and bounded memory (JSON and event stream)', async () => {
    const json = await endlessHttpServer('json');
    const events = await endlessHttpServer('event-stream');
    const { workspace, env } = await setup({
      mcp: { json: { url: json.url }, events: { url: events.url }, good: hostile('plain') },
    });
    const list = await measuredRun(['mcp', 'list', '-C', workspace], env);
    expect(list.code, list.stdout + list.stderr).toBe(1);
    for (const name of ['json', 'events'])
      expect(list.stdout).toContain(
        `  ✗ The MCP server "${name}" failed to start: it sent a reply larger than 10 MB (a reply that does not end?) and was dropped.\n`,
      );
    expect(list.stdout).not.toContain('The run goes on');
    expect(list.stdout).toContain('  good__echo — Echoes.');
    // Each reply was cut as soon as it was too large, not at the start timeout.
    for (const server of [json, events]) {
      expect(server.cutAfterMs()).toBeDefined();
      expect(server.cutAfterMs()).toBeLessThan(MCP_START_TIMEOUT_MS / 2);
    }
    expect(list.peakMb).toBeGreaterThan(0);
    expect(list.peakMb).toBeLessThan(300);
  }, 120_000);
});
