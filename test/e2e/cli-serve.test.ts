import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { startServe } from '../helpers/serve-process.js';
import { api, is, TestClient } from '../server/helpers.js';
import { openStalledClient } from '../server/stalled-client.js';

describe('taskweave serve as a process', { timeout: 60_000 }, () => {
  it('prints where to open it, runs queued work, shows a CLI run of another process live, and stops cleanly on SIGTERM', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-serve-');
    const serverScript = await writeScript(
      workspace,
      {
        turns: [
          { when: 'queued from the CLI', text: 'Did the queued task.' },
          { when: 'wait a while', toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
        ],
      },
      'server.json',
    );
    const cliScript = await writeScript(
      workspace,
      {
        // Slow enough that the subscriber (polling REST for the session, then subscribing) is in
        // time to see the run live even on a loaded machine.
        latencyMs: 800,
        turns: [
          { toolCalls: [{ name: 'run_command', args: { command: 'echo from the cli' } }] },
          { text: 'The CLI run is done.' },
        ],
      },
      'cli.json',
    );
    const serve = await startServe(workspace, ['--model', `script:${serverScript}`, '--approval', 'auto']);
    const lines = serve.stdout().split('\n');
    expect(lines[0]).toBe(`taskweave serve · workspace ${workspace} · model script:${serverScript}`);
    expect(lines[1]).toMatch(/^Open http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    expect(lines[2]).toBe('Ctrl-C stops the server (running sessions stop at their next step).');
    expect(serve.stderr()).toBe('');

    // A task added by `taskweave tasks add` in another process runs on the server's worker.
    const added = await runCli(['tasks', 'add', 'queued from the CLI', '-C', workspace]);
    expect(added.code).toBe(0);
    let goal: { status: string } | undefined;
    for (let tries = 0; tries < 100 && goal?.status !== 'completed'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      goal = (await api(serve.target, 'GET', '/api/tasks')).body.tasks[0];
    }
    expect(goal).toMatchObject({ status: 'completed', result_summary: 'Did the queued task.' });

    // A `taskweave run` in another process: a subscriber sees its events while it runs.
    const subscriber = await TestClient.open(serve.target);
    let cliExitedAt = 0;
    const cliRun = runCli([
      'run',
      'say something from the CLI',
      '-C',
      workspace,
      '--model',
      `script:${cliScript}`,
      '--approval',
      'auto',
    ]).then((result) => {
      cliExitedAt = Date.now();
      return result;
    });
    let sessionId: string | undefined;
    while (sessionId === undefined) {
      const sessions = (await api(serve.target, 'GET', '/api/sessions')).body.sessions as {
        id: string;
        goal: string;
      }[];
      sessionId = sessions.find((session) => session.goal === 'say something from the CLI')?.id;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    subscriber.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    const firstToolEvent = await subscriber.next((message) => message.type === 'tool_complete');
    const seenAt = Date.now();
    expect(firstToolEvent.session_id).toBe(sessionId);
    const done = await subscriber.next(is('response_complete'));
    expect(done).toMatchObject({ status: 'completed', final_answer: 'The CLI run is done.' });
    expect((await cliRun).code).toBe(0);
    expect(seenAt).toBeLessThan(cliExitedAt);
    const seqs = subscriber.messages
      .filter((message: ServerEvent) => message.session_id === sessionId)
      .map((message: ServerEvent) => message.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));

    // A switch of the approval mode by a client shows on the server's terminal.
    subscriber.send({ type: 'set_approval_mode', mode: 'edits' });
    subscriber.send({ type: 'set_approval_mode', mode: 'auto' });
    while (!serve.stdout().includes('switched to auto'))
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(serve.stdout()).toContain(
      'approval mode switched to edits by a client\napproval mode switched to auto by a client: tool calls now run unasked\n',
    );

    // SIGTERM mid-tool, with a client that stopped reading (it never answers the close frame):
    // the session stops at once and the server exits 0 without waiting for that client.
    const stalled = await openStalledClient(serve.target.server.port, {
      Authorization: `Bearer ${serve.target.token}`,
    });
    stalled.send(JSON.stringify({ type: 'subscribe', session_id: sessionId, after_seq: 0 }));
    const client = await TestClient.open(serve.target);
    client.send({ type: 'chat', content: 'wait a while' });
    await client.next((message) => message.type === 'tool_start');
    const stoppedAt = Date.now();
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    stalled.destroy();
    expect(serve.stdout()).toMatch(/stopping: running sessions end at their next step/);
    // The token is printed once, in the URL to open, and nowhere else.
    expect(serve.stdout().split(serve.target.token)).toHaveLength(2);
    expect(serve.stderr()).not.toContain(serve.target.token);
    const log = await runCli(['sessions', 'list', '-C', workspace]);
    expect(log.stdout).toMatch(/stopped/);
  });

  it('warns when it listens beyond this machine', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-serve-');
    const script = await writeScript(workspace, { turns: [{ text: 'hi' }] });
    const serve = await startServe(workspace, ['--model', `script:${script}`, '--host', '0.0.0.0']);
    expect(serve.stderr()).toMatch(/warning: listening on 0\.0\.0\.0: anyone who can reach this machine/);
    expect((await api(serve.target, 'GET', '/api/health')).status).toBe(200);
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
  });

  it('on a port already in use says so and how to choose another, as bad usage', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-serve-');
    const script = await writeScript(workspace, { turns: [{ text: 'hi' }] });
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const result = await runCli([
        'serve',
        '-C',
        workspace,
        '--model',
        `script:${script}`,
        '--port',
        `${port}`,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toMatch(/--port 0/);
      expect(result.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      busy.close();
    }
  });

  it('refuses a bad port as bad usage', async () => {
    const result = await runCli(['serve', '--port', '70000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/expected a port from 0/);
  });
});
