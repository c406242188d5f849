import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventPayload, ServerEvent } from '../../src/events/registry.js';
import { defaultDatabasePath, openDatabase } from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
import { runCli, tableRows } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const MINUTE_MS = 60_000;
const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function tempWorkspace(): Promise<string> {
  const folder = await tempWorkspaceRoot('taskweave-sessions-');
  folders.push(folder);
  return folder;
}

function sessionsCli(workspace: string, args: string[]) {
  return runCli(['sessions', ...args, '-C', workspace]);
}

interface Fixture {
  workspace: string;
  /** Ids of the sessions, by their goal's first word. */
  ids: { docs: string; login: string; build: string };
  events: ServerEvent[];
}

/**
 * Three sessions, written through the store as the agent will write them: `login` (the oldest,
 * but active after `docs` was created: a failed run and one still running), `docs` (no runs),
 * `build` (newest and most recently active: a completed run, a conversation with tool calls and
 * an event log). The store's clock starts three hours ago and moves ten minutes per write.
 */
async function fixture(): Promise<Fixture> {
  const workspace = await tempWorkspace();
  const db = openDatabase({ path: defaultDatabasePath(workspace) });
  let clock = Date.now() - 180 * MINUTE_MS;
  const store = new SessionStore(db, {
    now: () => {
      clock += 10 * MINUTE_MS;
      return clock;
    },
  });
  const session = (goal: string) =>
    store.createSession({ title: goal, goal, workspace, model: 'script:demo.json' }).id;
  try {
    const login = session('add a login page');
    const docs = session(`write the docs for the public API: ${'every endpoint, '.repeat(5)}with examples`);
    const failedRun = store.createRun({ sessionId: login, goal: 'add a login page', mode: 'simple' });
    store.finishRun({ id: failedRun.id, status: 'failed', steps: 2, inputTokens: 10, outputTokens: 5 });
    store.createRun({ sessionId: login, goal: 'add a login page, again', mode: 'complex' });

    const build = session('fix the build');
    const run = store.createRun({ sessionId: build, goal: 'fix the build', mode: 'simple' });
    store.appendMessage(build, run.id, 'user', 'fix the build');
    store.appendMessage(build, run.id, 'assistant', [
      { type: 'text', text: 'The import is wrong.' },
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'edit_file',
        input: { path: 'src/index.ts', old: 'x', new: 'y' },
      },
    ]);
    store.appendMessage(build, run.id, 'tool', [
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'edit_file',
        output: { type: 'text', value: 'replaced 1 occurrence' },
      },
    ]);
    store.appendMessage(build, run.id, 'assistant', 'Fixed: the import of ./util.js had no extension.');
    const payloads: EventPayload[] = [
      {
        type: 'agent_update',
        update_type: 'agent_start',
        max_steps: 50,
        mode: 'simple',
        loop: 'react',
        model: 'script:demo.json',
        goal: 'fix the build',
      },
      { type: 'agent_update', update_type: 'agent_turn_start', step: 1 },
      { type: 'tool_start', call_id: 'call_1', name: 'edit_file', args: { path: 'src/index.ts' }, step: 1 },
      {
        type: 'tool_complete',
        call_id: 'call_1',
        name: 'edit_file',
        result: 'replaced 1 occurrence',
        duration_ms: 12,
      },
      {
        type: 'tool_error',
        call_id: 'call_2',
        name: 'run_command',
        error: 'exit 2\nsrc/index.ts(3,1): error',
        duration_ms: 1500,
      },
      {
        type: 'agent_update',
        update_type: 'agent_completion',
        steps: 3,
        status: 'completed',
        final_answer: 'Fixed the import.',
        input_tokens: 1200,
        output_tokens: 340,
      },
      { type: 'response_complete', status: 'completed', final_answer: 'Fixed the import.' },
    ];
    const events = payloads.map(
      (payload, index): ServerEvent => ({
        ...payload,
        session_id: build,
        run_id: run.id,
        seq: index + 1,
        ts: clock + index,
      }),
    );
    for (const event of events) store.appendEvent(event);
    store.finishRun({
      id: run.id,
      status: 'completed',
      finalAnswer: 'Fixed the import.\nThe build passes.',
      steps: 3,
      inputTokens: 1200,
      outputTokens: 340,
    });
    return { workspace, ids: { docs, login, build }, events };
  } finally {
    db.close();
  }
}

const short = (id: string) => id.slice('ses_'.length, 'ses_'.length + 8);

describe('taskweave sessions (CLI)', () => {
  it('lists sessions most recently active first, with status, shortened goal and run count', async () => {
    const { workspace, ids } = await fixture();
    const run = await sessionsCli(workspace, ['list']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^id\s+started\s+status\s+goal\s+runs\s+tokens\s+cost$/);
    // Runs recorded without a cost (a model with no price) show their tokens only.
    expect(tableRows(run.stdout)).toEqual([
      [short(ids.build), '2 h ago', 'completed', 'fix the build', '1', '1540', '—'],
      [short(ids.login), '2 h ago', 'running', 'add a login page', '2', '15', '—'],
      [
        short(ids.docs),
        '2 h ago',
        'idle',
        `write the docs for the public API: every endpoint, every en…`,
        '0',
        '0',
        '—',
      ],
    ]);

    const limited = await sessionsCli(workspace, ['list', '--limit', '2', '--json']);
    expect(limited.code).toBe(0);
    const json = JSON.parse(limited.stdout);
    expect(json.map((session: { id: string }) => session.id)).toEqual([ids.build, ids.login]);
    expect(json[1]).toMatchObject({ goal: 'add a login page', run_count: 2, last_run_status: 'running' });
    expect(json[0]).toMatchObject({ input_tokens: 1200, output_tokens: 340, cost: null });

    const limitedTable = await sessionsCli(workspace, ['list', '-n', '1']);
    expect(tableRows(limitedTable.stdout)[0]?.[0]).toBe(short(ids.build));
    expect(limitedTable.stdout).toContain('(the 1 most recent; --limit <n> lists more)');

    const badLimit = await sessionsCli(workspace, ['list', '--limit', '0']);
    expect(badLimit.code).toBe(2);
  });

  it('shows the last session: goal, runs with steps, tokens and final answer, messages, and events with --events', async () => {
    const { workspace, ids } = await fixture();
    const run = await sessionsCli(workspace, ['show', 'last', '--events']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain(`Session ${ids.build}`);
    expect(out).toContain('goal:      fix the build');
    expect(out).toMatch(
      /Runs \(1\)\n {2}1\. run_\w+ {2}completed {2}simple {2}3 steps {2}1200 in \/ 340 out tokens/,
    );
    expect(out).toContain('final answer: Fixed the import.\n       The build passes.');
    expect(out).toContain(
      [
        'Messages (4)',
        '  user       fix the build',
        '  assistant  The import is wrong. → edit_file("src/index.ts", …)',
        '  tool       ← edit_file: replaced 1 occurrence',
        '  assistant  Fixed: the import of ./util.js had no extension.',
      ].join('\n'),
    );
    const eventLines = out
      .slice(out.indexOf('Events (7)\n') + 'Events (7)\n'.length)
      .trimEnd()
      .split('\n');
    expect(eventLines).toEqual([
      '  1  agent_update/agent_start       simple · react · script:demo.json · up to 50 steps: fix the build',
      '  2  agent_update/agent_turn_start  step 1',
      '  3  tool_start                     edit_file("src/index.ts")',
      '  4  tool_complete                  edit_file ✓ 12 ms replaced 1 occurrence',
      '  5  tool_error                     run_command ✗ 1.5 s exit 2 src/index.ts(3,1): error',
      '  6  agent_update/agent_completion  completed after 3 steps: Fixed the import.',
      '  7  response_complete              completed: Fixed the import.',
    ]);

    const withoutEvents = await sessionsCli(workspace, ['show', 'last']);
    expect(withoutEvents.stdout).not.toContain('Events');
    expect(withoutEvents.stdout).not.toContain('agent_start');
  });

  it('prints the whole session as JSON, with events only when asked', async () => {
    const { workspace, ids, events } = await fixture();
    const run = await sessionsCli(workspace, ['show', 'last', '--json', '--events']);
    expect(run.code).toBe(0);
    const session = JSON.parse(run.stdout);
    expect(session).toMatchObject({ id: ids.build, goal: 'fix the build', status: 'idle', workspace });
    expect(session.runs).toHaveLength(1);
    expect(session.runs[0]).toMatchObject({
      status: 'completed',
      steps: 3,
      input_tokens: 1200,
      output_tokens: 340,
      final_answer: 'Fixed the import.\nThe build passes.',
    });
    expect(session.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(session.messages[1].content[1]).toMatchObject({ type: 'tool-call', toolName: 'edit_file' });
    expect(session.events).toEqual(events);

    const withoutEvents = JSON.parse((await sessionsCli(workspace, ['show', 'last', '--json'])).stdout);
    expect(withoutEvents).not.toHaveProperty('events');
    expect(withoutEvents.messages).toHaveLength(4);
  });

  it('shows a session named by an id prefix, and refuses unknown ids with exit code 2', async () => {
    const { workspace, ids } = await fixture();
    const run = await sessionsCli(workspace, ['show', short(ids.login).slice(0, 5)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Session ${ids.login}`);
    expect(run.stdout).toMatch(/Runs \(2\)\n {2}1\. run_\w+ {2}failed {2}simple {2}2 steps/);
    expect(run.stdout).toMatch(/ {2}2\. run_\w+ {2}running {2}complex {2}0 steps/);
    expect(run.stdout).toContain('     goal: add a login page, again');
    expect(run.stdout).toContain('Messages (0)\n  none');

    const unknown = await sessionsCli(workspace, ['show', 'zzzzzz']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no session whose id starts with "zzzzzz"');
  });

  it('says there are no sessions yet, and `show last` exits 2 then', async () => {
    const workspace = await tempWorkspace();
    const list = await sessionsCli(workspace, ['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('No sessions yet. Start one with: taskweave run "<goal>"\n');
    const last = await sessionsCli(workspace, ['show', 'last']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('There are no sessions yet');
  });
});
