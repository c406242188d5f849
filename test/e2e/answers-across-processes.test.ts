import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresSchema } from '../../bench/cross-process-stream.js';
import type { ServerEvent } from '../../src/events/registry.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { api, is, TestClient } from '../server/helpers.js';

/*
 * A request a worker's run makes (a question, a plan, a call's approval) is answered on a
 * `taskweave serve` in another process, through the store: the answer is stored once (of two
 * servers answering at once one wins, the other is told it was already answered), the worker's
 * blocked task goes back in the queue, and a `work --watch` worker goes on with the answer to the
 * end, also one started after the worker that took the answer was killed with SIGKILL. On SQLite
 * (processes sharing one workspace's file) and on a PostgreSQL server (the server's workspace is
 * another folder: it needs no repository).
 */

type SharedStore = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

interface Cluster {
  workerDir: string;
  startWorker(): ChildProcess & { output: () => string };
  /** A serve on the store; `works`: it works the queue too (its runs wait for answers in-process). */
  serve(options?: { works?: boolean; model?: string }): Promise<ServeProcess>;
  /** The worker's script model. */
  script: string;
  addTask(goal: string): Promise<void>;
}

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await closed;
  }
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function cluster(store: SharedStore, workerTurns: unknown[], workerArgs: string[]): Promise<Cluster> {
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-answers-home-'));
  const workerDir = await mkdtemp(path.join(tmpdir(), 'taskweave-answers-worker-'));
  const serveDir =
    store.kind === 'sqlite' ? workerDir : await mkdtemp(path.join(tmpdir(), 'taskweave-answers-serve-'));
  const storeArgs = store.kind === 'postgres' ? ['--store', store.url] : [];
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    TASKWEAVE_STORE: '',
    NO_COLOR: '1',
  };
  const script = path.join(home, 'worker.json');
  await writeFile(script, JSON.stringify({ turns: workerTurns }));
  const idle = path.join(home, 'idle.json');
  await writeFile(idle, JSON.stringify({ turns: [{ text: 'The server runs nothing here.' }] }));
  return {
    workerDir,
    startWorker() {
      const child = spawn(
        process.execPath,
        [
          CLI_PATH,
          'work',
          '--watch',
          '-C',
          workerDir,
          '--model',
          `script:${script}`,
          ...storeArgs,
          ...workerArgs,
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      children.push(child);
      return Object.assign(child, { output: () => output });
    },
    script,
    async serve(options = {}) {
      const args = [
        ...(options.works ? [] : ['--no-work']),
        '--port',
        '0',
        '--model',
        options.model ?? `script:${idle}`,
        ...storeArgs,
      ];
      const serve = await startServe(serveDir, args, { env });
      children.push(serve.child);
      return serve;
    },
    async addTask(goal) {
      const added = await runCli(['tasks', 'add', '-C', serveDir, ...storeArgs, goal], { env });
      expect(added.code, added.stdout + added.stderr).toBe(0);
    },
  };
}

/** Waits for the session of the one task (the first the server lists) and follows it on a socket. */
async function followSession(serve: ServeProcess): Promise<{ client: TestClient; sessionId: string }> {
  const deadline = Date.now() + 90_000;
  let sessionId: string | undefined;
  while (sessionId === undefined) {
    if (Date.now() > deadline) throw new Error(`no session listed: ${serve.stdout()}${serve.stderr()}`);
    sessionId = (await api(serve.target, 'GET', '/api/sessions')).body.sessions?.[0]?.id;
    if (sessionId === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const client = await TestClient.open(serve.target);
  client.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
  return { client, sessionId };
}

/** The run of a session ended as `status` (its `after`-th response_complete). */
function ended(client: TestClient, status: string, index = 0) {
  return new Promise<ServerEvent>((resolve, reject) => {
    const deadline = Date.now() + 90_000;
    const look = () => {
      const ends = client.messages.filter(is('response_complete'));
      const end = ends[index];
      if (end)
        return end.type === 'response_complete' && end.status === status
          ? resolve(end)
          : reject(new Error(`run ${index} ended ${JSON.stringify(end)}`));
      if (Date.now() > deadline) return reject(new Error(`no end: ${client.kinds().join(', ')}`));
      setTimeout(look, 50);
    };
    look();
  });
}

/** Waits a little for error messages: an answer taken gets none. */
async function errorsAfter(client: TestClient, ms = 1_500): Promise<ServerEvent[]> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return client.messages.filter(is('error'));
}

const QUESTION_TURNS = [
  {
    when: 'The user answered: Ada',
    latencyMs: 2_500,
    toolCalls: [{ name: 'write_file', args: { path: 'name.txt', content: 'Ada\n' } }],
  },
  { when: 'The user answered: Ada', text: 'Wrote the name.' },
  { toolCalls: [{ name: 'request_input', args: { question: 'Which name goes in name.txt?' } }] },
];

function scenarios(store: () => Promise<SharedStore>) {
  it('a question answered on one of two servers at once: one wins, the other is told, the worker goes on to the end', async () => {
    const nodes = await cluster(await store(), QUESTION_TURNS, ['--approval', 'auto']);
    const worker = nodes.startWorker();
    const [a, b] = await Promise.all([nodes.serve(), nodes.serve()]);
    await nodes.addTask('write the name into name.txt');
    const { client, sessionId } = await followSession(a);
    const asked = await client.next<Extract<ServerEvent, { update_type: 'agent_request_input' }>>(
      is('agent_request_input'),
      { timeoutMs: 90_000 },
    );
    await ended(client, 'needs_input');
    const other = await TestClient.open(b.target);
    other.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    await other.next(is('agent_request_input'));
    // Both servers answer at once.
    client.send({ type: 'agent_user_input', request_id: asked.request_id, content: 'Ada from a' });
    other.send({ type: 'agent_user_input', request_id: asked.request_id, content: 'Ada from b' });
    const errors = [...(await errorsAfter(client)), ...(await errorsAfter(other, 0))];
    expect(errors, JSON.stringify(errors)).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'conflict' });
    expect(errors[0]?.type === 'error' && errors[0].message).toMatch(
      new RegExp(
        `^Request ${asked.request_id} was already answered \\(by .* pid \\d+ at .*\\); the first answer counts\\.$`,
      ),
    );
    const winner = client.messages.includes(errors[0]!) ? 'Ada from b' : 'Ada from a';
    await ended(client, 'completed', 1);
    // The winner's answer, logged once, reached the model; the worker did the work.
    const answers = client.messages.filter(is('agent_user_input'));
    expect(answers).toMatchObject([{ request_id: asked.request_id, content: winner }]);
    expect(await readFile(path.join(nodes.workerDir, 'name.txt'), 'utf8')).toBe('Ada\n');
    expect(worker.exitCode).toBeNull();
    // A third answer, after the fact: the request no longer waits.
    client.send({ type: 'agent_user_input', request_id: asked.request_id, content: 'late' });
    await client.next((m) => m.type === 'error' && m.message.includes('already answered'));
  });

  it('a worker killed (SIGKILL) after it took the answer: a restarted worker goes on with it', async () => {
    const nodes = await cluster(await store(), QUESTION_TURNS, ['--approval', 'auto']);
    const first = nodes.startWorker();
    const serve = await nodes.serve();
    await nodes.addTask('write the name into name.txt');
    const { client } = await followSession(serve);
    const asked = await client.next<Extract<ServerEvent, { update_type: 'agent_request_input' }>>(
      is('agent_request_input'),
      { timeoutMs: 90_000 },
    );
    await ended(client, 'needs_input');
    client.send({ type: 'agent_user_input', request_id: asked.request_id, content: 'Ada Lovelace' });
    // The continued run starts: the answer is taken; the worker dies during its slow model call.
    await client.next((m) => is('agent_start')(m) && client.messages.filter(is('agent_start')).length === 2, {
      timeoutMs: 90_000,
    });
    await client.next(is('agent_user_input'));
    const killed = new Promise((resolve) => first.once('close', resolve));
    first.kill('SIGKILL');
    await killed;
    nodes.startWorker();
    // The killed run logged no end; the restarted worker's run (a third start) ends completed.
    await ended(client, 'completed', 1);
    expect(client.messages.filter(is('agent_start'))).toHaveLength(3);
    expect(client.messages.filter(is('agent_user_input'))).toMatchObject([
      { request_id: asked.request_id, content: 'Ada Lovelace' },
    ]);
    expect(await readFile(path.join(nodes.workerDir, 'name.txt'), 'utf8')).toBe('Ada\n');
    expect(await errorsAfter(client, 0)).toEqual([]);
  });

  it("the stop button on a server stops the worker's run: the goal is stopped in the to-do list, not cancelled", async () => {
    const nodes = await cluster(
      await store(),
      [
        {
          when: 'write slow.txt',
          latencyMs: 30_000,
          toolCalls: [{ name: 'write_file', args: { path: 'slow.txt', content: 'never\n' } }],
        },
      ],
      ['--approval', 'auto'],
    );
    const worker = nodes.startWorker();
    const serve = await nodes.serve();
    await nodes.addTask('write slow.txt');
    const { client, sessionId } = await followSession(serve);
    await client.next(is('agent_turn_start'), { timeoutMs: 90_000 });
    client.send({ type: 'agent_control', action: 'stop', session_id: sessionId });
    await ended(client, 'stopped');
    expect(await errorsAfter(client, 0)).toEqual([]);
    const listed = await api(serve.target, 'GET', '/api/tasks');
    expect(listed.body.tasks.map((task: { status: string }) => task.status)).toEqual(['stopped']);
    expect(worker.output()).toContain('was stopped; stopping it at the next step boundary');
    await expect(readFile(path.join(nodes.workerDir, 'slow.txt'), 'utf8')).rejects.toThrow();
  });

  it('a plan approved on a server runs on the worker', async () => {
    const nodes = await cluster(
      await store(),
      [
        {
          toolCalls: [
            {
              name: 'plan_actions',
              args: {
                tasks: [{ id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] }],
              },
            },
          ],
        },
        {
          task: 'a',
          toolCalls: [
            { name: 'write_file', args: { path: 'a.txt', content: 'a\n' } },
            { name: 'task_completed', args: { summary: 'wrote a.txt' } },
          ],
        },
        { toolCalls: [{ name: 'final_answer', args: { answer: 'All done.' } }] },
      ],
      ['--approval', 'auto', '--plan', 'always'],
    );
    nodes.startWorker();
    const serve = await nodes.serve();
    await nodes.addTask('write a.txt as a plan');
    const { client } = await followSession(serve);
    const proposed = await client.next<Extract<ServerEvent, { update_type: 'plan_proposed' }>>(
      is('plan_proposed'),
      { timeoutMs: 90_000 },
    );
    await ended(client, 'needs_input');
    client.send({ type: 'plan_decision', plan_id: proposed.plan_id, decision: 'approve' });
    await ended(client, 'completed', 1);
    expect(await errorsAfter(client, 0)).toEqual([]);
    expect(client.messages.find(is('task_completed'))).toMatchObject({ task_id: 'a' });
    expect(await readFile(path.join(nodes.workerDir, 'a.txt'), 'utf8')).toBe('a\n');
    // Approved once: a second verdict is refused.
    client.send({ type: 'plan_decision', plan_id: proposed.plan_id, decision: 'reject', feedback: 'no' });
    await client.next((m) => m.type === 'error' && m.message.includes('already answered'));
  });

  it('a call approved on a server runs on the worker, which asked nobody', async () => {
    const write = { name: 'write_file', args: { path: 'b.txt', content: 'b\n' } };
    const nodes = await cluster(
      await store(),
      [
        { when: 'has now allowed it', toolCalls: [write] },
        { when: 'has now allowed it', text: 'Wrote b.txt.' },
        { toolCalls: [write] },
      ],
      ['--approval', 'ask'],
    );
    nodes.startWorker();
    const serve = await nodes.serve();
    await nodes.addTask('write b.txt');
    const { client } = await followSession(serve);
    const asked = await client.next<Extract<ServerEvent, { update_type: 'approval_requested' }>>(
      is('approval_requested'),
      { timeoutMs: 90_000 },
    );
    await ended(client, 'needs_input');
    client.send({ type: 'approval_decision', request_id: asked.request_id, decision: 'allow' });
    await ended(client, 'completed', 1);
    // The continued run's same call was not asked again: the answer given on the server allowed it.
    expect(client.messages.filter(is('approval_requested'))).toHaveLength(1);
    expect(await readFile(path.join(nodes.workerDir, 'b.txt'), 'utf8')).toBe('b\n');
  });
  it('a failed task of a worker run with --on-failure ask: the decision given on a server is its answer', async () => {
    const nodes = await cluster(
      await store(),
      [
        {
          toolCalls: [
            {
              name: 'plan_actions',
              args: {
                tasks: [{ id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] }],
              },
            },
          ],
        },
        { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the disk was busy' } }] },
        {
          task: 'a',
          toolCalls: [
            { name: 'write_file', args: { path: 'a.txt', content: 'a\n' } },
            { name: 'task_completed', args: { summary: 'wrote a.txt' } },
          ],
        },
        { toolCalls: [{ name: 'final_answer', args: { answer: 'All done.' } }] },
      ],
      ['--approval', 'auto', '--plan', 'always', '--yes', '--on-failure', 'ask'],
    );
    const worker = nodes.startWorker();
    const [a, b] = await Promise.all([nodes.serve(), nodes.serve()]);
    await nodes.addTask('write a.txt as a plan');
    const { client, sessionId } = await followSession(a);
    const asked = await client.next<Extract<ServerEvent, { update_type: 'failure_decision_requested' }>>(
      is('failure_decision_requested'),
      { timeoutMs: 90_000 },
    );
    expect(asked).toMatchObject({ task_id: 'a', reason: 'the disk was busy' });
    // The worker's run waits (no needs_input end): both servers answer at once, one wins.
    const other = await TestClient.open(b.target);
    other.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    await other.next(is('failure_decision_requested'));
    client.send({ type: 'failure_decision', request_id: asked.request_id, decision: 'retry' });
    other.send({ type: 'failure_decision', request_id: asked.request_id, decision: 'retry' });
    await ended(client, 'completed', 0);
    const errors = [...(await errorsAfter(client, 0)), ...(await errorsAfter(other, 0))];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already answered/) });
    expect(client.messages.filter(is('agent_start'))).toHaveLength(1);
    expect(await readFile(path.join(nodes.workerDir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(worker.exitCode).toBeNull();
  });

  it('a worker killed while it waited for a failure decision: the decision given meanwhile reaches the restarted worker', async () => {
    const plan = {
      toolCalls: [
        {
          name: 'plan_actions',
          args: { tasks: [{ id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] }] },
        },
      ],
    };
    const writeA = {
      task: 'a',
      toolCalls: [
        { name: 'write_file', args: { path: 'a.txt', content: 'a\n' } },
        { name: 'task_completed', args: { summary: 'wrote a.txt' } },
      ],
    };
    const final = { toolCalls: [{ name: 'final_answer', args: { answer: 'All done.' } }] };
    const nodes = await cluster(
      await store(),
      [
        plan,
        { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the disk was busy' } }] },
        writeA,
        final,
      ],
      ['--approval', 'auto', '--plan', 'always', '--yes', '--on-failure', 'ask'],
    );
    const first = nodes.startWorker();
    const serve = await nodes.serve();
    await nodes.addTask('write a.txt as a plan');
    const { client } = await followSession(serve);
    const asked = await client.next<Extract<ServerEvent, { update_type: 'failure_decision_requested' }>>(
      is('failure_decision_requested'),
      { timeoutMs: 90_000 },
    );
    const killed = new Promise((resolve) => first.once('close', resolve));
    first.kill('SIGKILL');
    await killed;
    // No worker is alive: the decision is stored for whichever worker goes on with the session.
    client.send({ type: 'failure_decision', request_id: asked.request_id, decision: 'retry' });
    expect(await errorsAfter(client)).toEqual([]);
    // The restarted worker's model does the task this time (a script read afresh).
    await writeFile(nodes.script, JSON.stringify({ turns: [writeA, final] }));
    nodes.startWorker();
    await ended(client, 'completed', 0);
    expect(client.messages.filter(is('failure_decision_requested'))).toHaveLength(1);
    expect(client.messages.find(is('agent_note'))).toMatchObject({
      content: 'The decision given before the last worker stopped applies to task a: retry.',
    });
    expect(await readFile(path.join(nodes.workerDir, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it("a question and an approval a serve's own run waits for in-process are answered on another serve", async () => {
    const nodes = await cluster(await store(), QUESTION_TURNS, []);
    const runner = await nodes.serve({ works: true, model: `script:${nodes.script}` });
    const answerer = await nodes.serve();
    await nodes.addTask('write the name into name.txt');
    const { client } = await followSession(answerer);
    const asked = await client.next<Extract<ServerEvent, { update_type: 'agent_request_input' }>>(
      is('agent_request_input'),
      { timeoutMs: 90_000 },
    );
    client.send({ type: 'agent_user_input', request_id: asked.request_id, content: 'Ada Lovelace' });
    // The runner asks its clients to approve the file change (approval ask): answered here too.
    const approval = await client.next<Extract<ServerEvent, { update_type: 'approval_requested' }>>(
      is('approval_requested'),
      { timeoutMs: 90_000 },
    );
    client.send({ type: 'approval_decision', request_id: approval.request_id, decision: 'allow' });
    await ended(client, 'completed', 0);
    expect(await errorsAfter(client, 0)).toEqual([]);
    // One run, which waited: the answer reached it in the other process.
    expect(client.messages.filter(is('agent_start'))).toHaveLength(1);
    expect(client.messages.filter(is('agent_user_input'))).toMatchObject([{ content: 'Ada Lovelace' }]);
    // The runner prints its run's end after writing it, which the answerer may relay first.
    await expect.poll(() => runner.stdout(), { timeout: 60_000 }).toContain('completed');
  });
}

describe('answers reach a worker in another process (SQLite: one workspace)', { timeout: 120_000 }, () => {
  scenarios(async () => ({ kind: 'sqlite' }));
});

const server = process.env.TASKWEAVE_TEST_POSTGRES;

describe('answers reach a worker on another machine (PostgreSQL: --store)', { timeout: 120_000 }, () => {
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set (.ci/run sets it)', () => {});
    return;
  }
  scenarios(async () => {
    const schema = await postgresSchema(server);
    cleanups.push(schema.drop);
    return { kind: 'postgres', url: schema.url };
  });
});
