import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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
  });

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
  });
});

describe('an MCP server whose tools/list never ends', () => {
  it('is stopped with a clear error within seconds and bounded memory; the other servers work', async () => {
    const { workspace, model, env } = await setup(
      {
        mcp: {
          endless: hostile('endless'),
          pages: hostile('many-pages'),
          good: hostile('plain'),
        },
      },
      [{ toolCalls: [{ name: 'good__echo', args: { text: 'still here' } }] }, { text: 'Done.' }],
    );
    let memory: ReturnType<typeof watchPeakMemory> | undefined;
    const started = Date.now();
    const run = await runCli(
      ['run', '--approval', 'auto', '--json', '--model', model, '--cwd', workspace, 'use the good one'],
      {
        env,
        timeoutMs: 90_000,
        onSpawn: (child) => {
          memory = watchPeakMemory(child.pid ?? 0);
        },
      },
    );
    const elapsed = Date.now() - started;
    memory?.stop();
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
    expect(elapsed).toBeLessThan(MCP_START_TIMEOUT_MS);
    expect(memory?.peakMb()).toBeGreaterThan(0);
    expect(memory?.peakMb()).toBeLessThan(300);
  }, 120_000);
});
