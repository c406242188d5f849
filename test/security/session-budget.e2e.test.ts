import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { runCliUntil } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { api, is, startServer, TestClient } from '../server/helpers.js';

/** The fixed price of the script model, in US dollars per million tokens (a step costs about $0.026). */
const PRICE = { input: 10, output: 40 };
/** Passed by the killed run's second step, not by its first. */
const BUDGET = 0.05;

/**
 * A run that pays for two steps and is killed while the second step's command runs; every later
 * process replays the script afresh, so the turns of a continued run come first (their prompt
 * holds taskweave's "was interrupted" message, or the new goal).
 */
const SCRIPT = {
  turns: [
    {
      when: 'was interrupted',
      toolCalls: [{ name: 'write_file', args: { path: 'late.txt', content: 'x\n' } }],
    },
    { when: 'was interrupted', text: 'Continued.' },
    { when: 'second goal', toolCalls: [{ name: 'write_file', args: { path: 'late.txt', content: 'x\n' } }] },
    { when: 'second goal', text: 'Second answer.' },
    {
      when: 'first goal',
      text: 'one',
      toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }],
    },
    { when: 'first goal', text: 'two', toolCalls: [{ name: 'run_command', args: { command: 'sleep 60' } }] },
  ],
};

function usageOf(events: ServerEvent[]) {
  return events.flatMap((event) =>
    event.type === 'agent_update' && event.update_type === 'model_usage' ? [event] : [],
  );
}

function exceededOf(events: ServerEvent[]) {
  return events.find((event) => event.type === 'agent_update' && event.update_type === 'budget_exceeded');
}

/** A priced script model in a fresh workspace, and a CLI run in it killed (SIGKILL) after paying for two steps. */
async function killedSession() {
  const workspace = await tempWorkspaceRoot('taskweave-budget-');
  const scripts = await tempWorkspaceRoot('taskweave-budget-script-');
  const model = `script:${await writeScript(scripts, SCRIPT)}`;
  await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
  await writeFile(
    path.join(workspace, '.taskweave', 'config.json'),
    JSON.stringify({ prices: { [model]: PRICE } }),
  );
  const env = { HOME: scripts, XDG_CONFIG_HOME: path.join(scripts, '.config'), TASKWEAVE_MODEL: '' };
  const agent = [
    '--approval',
    'auto',
    '--sandbox',
    'off',
    '--model',
    model,
    '--budget',
    String(BUDGET),
    '--cwd',
    workspace,
  ];
  const killed = await runCliUntil(['run', ...agent, '--json', 'first goal'], {
    env,
    when: (stdout) => stdout.includes('"type":"tool_start"') && stdout.includes('"name":"run_command"'),
    delayMs: 200,
  });
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  const events = parseJsonLines(killed.stdout);
  const usage = usageOf(events);
  expect(usage).toHaveLength(2);
  const spent = usage.reduce((sum, event) => sum + (event.cost ?? 0), 0);
  // Each step alone stays under the budget; the two together pass it.
  for (const event of usage) expect(event.cost).toBeLessThan(BUDGET);
  expect(spent).toBeGreaterThanOrEqual(BUDGET);
  const sessionId = events[0]?.session_id ?? '';
  return { workspace, model, env, agent, spent, sessionId, cli: (args: string[]) => runCli(args, { env }) };
}

/**
 * Runs the CLI with `args`; it must stop at once on the budget the killed run spent: no model
 * call, exit 3 (`work` says 1: its queue has a task that did not complete).
 */
async function expectStoppedAtOnce(
  session: Awaited<ReturnType<typeof killedSession>>,
  args: string[],
  code = 3,
) {
  const result = await session.cli(args);
  const events = parseJsonLines(result.stdout);
  expect(usageOf(events)).toHaveLength(0);
  expect(exceededOf(events)).toMatchObject({
    step: 0,
    spent: expect.closeTo(session.spent, 10),
    budget: BUDGET,
  });
  expect(result.code, result.stderr).toBe(code);
  await expect(readFile(path.join(session.workspace, 'late.txt'), 'utf8')).rejects.toThrow();
}

describe('the budget is the session’s, whichever way it is continued (issue 39, item 10)', {
  timeout: 120_000,
}, () => {
  it('a web chat (WebSocket) continuing a session whose killed run spent the budget gets no fresh one; REST counts the spending; so does run --resume', async () => {
    const session = await killedSession();
    const server = await startServer([], { cwd: session.workspace, model: session.model, budget: BUDGET });
    const client = await TestClient.open(server);
    client.send({ type: 'chat', content: 'second goal', agent_mode: true, session_id: session.sessionId });
    const done = await client.next(is('response_complete'), { timeoutMs: 90_000 });
    expect(done).toMatchObject({ status: 'stopped', session_id: session.sessionId });
    const web = client.messages.filter((message) => message.run_id === done.run_id);
    expect(usageOf(web)).toHaveLength(0);
    expect(exceededOf(web)).toMatchObject({
      step: 0,
      spent: expect.closeTo(session.spent, 10),
      budget: BUDGET,
    });
    // REST: the session's cost counts what the killed run's calls cost, whether or not its goal
    // was taken up yet (the chat's goal may start first: the queue was free once the server put
    // the killed goal back), and so does the killed run's record.
    const detail = await api(server, 'GET', `/api/sessions/${session.sessionId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.session.cost).toBeCloseTo(session.spent, 10);
    expect(detail.body.runs[0].cost).toBeCloseTo(session.spent, 10);
    // The server's worker takes the killed goal up (stopped at once too): its run is closed as
    // stopped, with that cost, and nothing runs in the session any more.
    await expect
      .poll(
        async () => {
          const { body } = await api(server, 'GET', `/api/sessions/${session.sessionId}`);
          return (
            body.running === false && body.runs.every((run: { status: string }) => run.status !== 'running')
          );
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(true);
    const closed = await api(server, 'GET', `/api/sessions/${session.sessionId}`);
    expect(closed.body.runs[0]).toMatchObject({ status: 'stopped', cost: expect.closeTo(session.spent, 10) });
    expect(closed.body.session.cost).toBeCloseTo(session.spent, 10);
    await expectStoppedAtOnce(session, [
      'run',
      ...session.agent,
      '--resume',
      session.sessionId,
      '--json',
      'second goal',
    ]);
  });

  it('run --resume a session whose run was killed: the killed run’s calls count', async () => {
    const session = await killedSession();
    await expectStoppedAtOnce(session, [
      'run',
      ...session.agent,
      '--resume',
      'last',
      '--json',
      'second goal',
    ]);
  });

  it('taskweave resume of the killed run: stopped at once, and the run it closes keeps its cost', async () => {
    const session = await killedSession();
    await expectStoppedAtOnce(session, ['resume', session.sessionId, ...session.agent, '--json']);
    const shown = await session.cli([
      'sessions',
      'show',
      session.sessionId,
      '--json',
      '--cwd',
      session.workspace,
    ]);
    expect(JSON.parse(shown.stdout).runs[0]).toMatchObject({
      status: 'stopped',
      cost: expect.closeTo(session.spent, 10),
    });
  });

  it('taskweave work taking up the killed run’s goal: stopped at once', async () => {
    const session = await killedSession();
    await expectStoppedAtOnce(session, ['work', ...session.agent, '--json'], 1);
  });
});
