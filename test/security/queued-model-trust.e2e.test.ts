import { mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareRemote, clusterSchema } from '../../bench/cluster-harness.js';
import { runCli, writeScript } from '../helpers/cli.js';
import { type LlmServer, startLlmServer } from '../helpers/llm-server.js';

/*
 * Issue 39, item 3: anyone who can write to the store queued `--model openai:gpt-4.1 --base-url
 * http://their-server/v1`, and the worker that claimed the goal called that URL with its own
 * OPENAI_API_KEY; a queued `script:` model ran a script file of the submitter's choosing. A queued
 * model is a request: the worker (a real `taskweave work` process) refuses what it does not trust,
 * the goal fails saying why, and the submitter sees the reason. The "their server" of these tests
 * is a local HTTP server that records every request it gets.
 */

const WORKER_KEY = 'sk-worker-secret-7f3a9c21';

/** A machine of its own: HOME, config and clones, the worker's key in its environment. */
async function machine(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-'));
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    TASKWEAVE_MODEL: '',
    TASKWEAVE_STORE: '',
    TASKWEAVE_CLONES: '',
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    GIT_AUTHOR_NAME: 'worker',
    GIT_AUTHOR_EMAIL: 'worker@example.com',
    GIT_COMMITTER_NAME: 'worker',
    GIT_COMMITTER_EMAIL: 'worker@example.com',
    ...extra,
  };
}

async function userConfig(env: NodeJS.ProcessEnv, config: unknown): Promise<void> {
  const folder = path.join(env.XDG_CONFIG_HOME ?? '', 'taskweave');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'config.json'), JSON.stringify(config));
}

/**
 * A goal written straight into a workspace's SQLite queue with the settings an attacker chose
 * (`tasks add`, then its stored settings set the way any writer of the store can).
 */
async function queueInSqlite(
  workspace: string,
  env: NodeJS.ProcessEnv,
  goal: string,
  model: { model: string; baseUrl?: string },
): Promise<string> {
  const added = await runCli(['tasks', 'add', '--json', '--cwd', workspace, goal], { env });
  expect(added.code, added.stderr).toBe(0);
  const id = (JSON.parse(added.stdout) as { id: string }).id;
  const settings = { ...model, approval: 'auto', sandbox: 'off', network: false, maxSteps: 5, plan: 'never' };
  const db = new Database(path.join(workspace, '.taskweave', 'taskweave.db'));
  db.prepare('UPDATE tasks SET run_settings = ? WHERE id = ?').run(JSON.stringify(settings), id);
  db.close();
  return id;
}

async function taskOf(workspace: string, env: NodeJS.ProcessEnv, id: string) {
  const listed = await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace], { env });
  const tasks = JSON.parse(listed.stdout) as {
    id: string;
    status: string;
    fail_reason?: string | null;
    session_id: string;
  }[];
  return tasks.find((task) => task.id === id);
}

function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('a queued model is a request, not a command (issue 39, item 3)', { timeout: 120_000 }, () => {
  let server: LlmServer;
  let scripts: string;
  let ownModel: string;
  beforeAll(async () => {
    server = await startLlmServer();
    scripts = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-scripts-'));
    ownModel = `script:${await writeScript(scripts, { turns: [{ text: 'The worker answered itself.' }] }, 'own.json')}`;
  });
  afterAll(async () => {
    await server.close();
  });

  it('a worker never calls a queued base URL it does not trust: no request reaches it, the goal fails saying why', async () => {
    const env = await machine({ OPENAI_API_KEY: WORKER_KEY });
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-ws-'));
    const before = server.requests.length;
    const id = await queueInSqlite(workspace, env, 'summarise the repository', {
      model: 'openai:gpt-4.1',
      baseUrl: server.baseUrl,
    });
    const worked = await runCli(['work', '--cwd', workspace, '--model', ownModel], { env });
    expect(server.requests.slice(before)).toEqual([]);
    expect(JSON.stringify(server.requests)).not.toContain(WORKER_KEY);
    expect(worked.stderr + worked.stdout).toContain('queue: 0 completed, 1 failed');
    expect(worked.code).toBe(1);
    const task = await taskOf(workspace, env, id);
    expect(task?.status).toBe('failed');
    expect(task?.fail_reason).toContain('openai:gpt-4.1');
    expect(task?.fail_reason).toContain('"queuedModels"');
    // The submitter reads the reason in the session too.
    const shown = await runCli(['sessions', 'show', task?.session_id ?? '', '--events', '--cwd', workspace], {
      env,
    });
    expect(shown.stdout + shown.stderr).toContain('does not trust');
  });

  it('a model the worker allows is still refused at a base URL it does not trust', async () => {
    const env = await machine({ OPENAI_API_KEY: WORKER_KEY });
    await userConfig(env, { queuedModels: ['openai:gpt-4.1'] });
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-ws-'));
    const before = server.requests.length;
    const id = await queueInSqlite(workspace, env, 'summarise the repository', {
      model: 'openai:gpt-4.1',
      baseUrl: server.baseUrl,
    });
    const worked = await runCli(['work', '--cwd', workspace, '--model', ownModel], { env });
    expect(worked.code).toBe(1);
    expect(server.requests.slice(before)).toEqual([]);
    const task = await taskOf(workspace, env, id);
    expect(task?.fail_reason).toContain(server.baseUrl);
    expect(task?.fail_reason).toContain('"trustedBaseUrls"');
  });

  it('the same URL in the worker\'s own "trustedBaseUrls" and model in "queuedModels" is used (the key goes where the user said)', async () => {
    const env = await machine({ OPENAI_API_KEY: WORKER_KEY });
    await userConfig(env, { queuedModels: ['openai:gpt-4.1'], trustedBaseUrls: [server.baseUrl] });
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-ws-'));
    const before = server.requests.length;
    await queueInSqlite(workspace, env, 'summarise the repository', {
      model: 'openai:gpt-4.1',
      baseUrl: server.baseUrl,
    });
    const worked = await runCli(['work', '--cwd', workspace, '--model', ownModel], { env });
    expect(worked.stderr + worked.stdout).toContain(
      'runs with the settings it was queued with: model openai:gpt-4.1',
    );
    // The server this test plays is no real provider (the run then fails): what counts is that it was called, with the key.
    const received = server.requests.slice(before);
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]?.headers.authorization).toBe(`Bearer ${WORKER_KEY}`);
  });

  it('a queued script model runs only in a worker started with --allow-queued-scripts', async () => {
    const env = await machine();
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-ws-'));
    // The submitter's script calls tools as the model: it writes a file on the worker's machine.
    const theirs = await writeScript(
      scripts,
      {
        turns: [
          { toolCalls: [{ name: 'write_file', args: { path: 'pwned.txt', content: 'theirs' } }] },
          { text: 'Written.' },
        ],
      },
      'theirs.json',
    );
    const refused = await queueInSqlite(workspace, env, 'write the file', { model: `script:${theirs}` });
    const worked = await runCli(['work', '--approval', 'auto', '--cwd', workspace, '--model', ownModel], {
      env,
    });
    expect(worked.code).toBe(1);
    expect(await exists(path.join(workspace, 'pwned.txt'))).toBe(false);
    const task = await taskOf(workspace, env, refused);
    expect(task?.fail_reason).toContain('--allow-queued-scripts');
    // Started with the flag, the worker runs it.
    await queueInSqlite(workspace, env, 'write the file again', { model: `script:${theirs}` });
    const allowed = await runCli(
      ['work', '--allow-queued-scripts', '--approval', 'auto', '--cwd', workspace, '--model', ownModel],
      { env },
    );
    expect(allowed.code, allowed.stderr + allowed.stdout).toBe(0);
    expect(await exists(path.join(workspace, 'pwned.txt'))).toBe(true);
  });

  it("a workspace config (the repository's) cannot add to the worker's queued models", async () => {
    const env = await machine({ OPENAI_API_KEY: WORKER_KEY });
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-ws-'));
    await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
    await writeFile(
      path.join(workspace, '.taskweave', 'config.json'),
      JSON.stringify({ queuedModels: ['openai:gpt-4.1'] }),
    );
    const worked = await runCli(['work', '--cwd', workspace, '--model', ownModel], { env });
    expect(worked.code).toBe(2);
    expect(worked.stderr).toContain('sets "queuedModels"; only your own config');
  });

  const postgres = process.env.TASKWEAVE_TEST_POSTGRES;
  it.skipIf(postgres === undefined || postgres === '')(
    'run --repo --base-url on a shared store: the worker on another machine sends nothing there, and the run that queued it says why',
    async () => {
      const schema = await clusterSchema(postgres ?? '');
      try {
        const root = await mkdtemp(path.join(tmpdir(), 'taskweave-queued-model-repo-'));
        const remote = bareRemote(root, 'app');
        const submitter = await machine({ TASKWEAVE_STORE: schema.url, OPENAI_API_KEY: 'sk-submitter' });
        const worker = await machine({ TASKWEAVE_STORE: schema.url, OPENAI_API_KEY: WORKER_KEY });
        const before = server.requests.length;
        // The submitter follows its goal until a worker has taken it up.
        const followed = runCli(
          [
            'run',
            '--model',
            'openai:gpt-4.1',
            '--base-url',
            server.baseUrl,
            '--cwd',
            submitter.HOME ?? '',
            '--repo',
            remote,
            'summarise the repository',
          ],
          { env: submitter },
        );
        for (let tries = 0; tries < 200; tries += 1) {
          const now = await runCli(
            ['tasks', 'list', '--json', '--cwd', submitter.HOME ?? '', '--repo', remote],
            {
              env: submitter,
            },
          );
          if (JSON.parse(now.stdout || '[]').length === 1) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const worked = await runCli(
          ['work', '--yes', '--model', ownModel, '--cwd', worker.HOME ?? '', '--repo', remote],
          { env: worker },
        );
        expect(worked.stderr + worked.stdout).toContain('queue: 0 completed, 1 failed');
        expect(server.requests.slice(before)).toEqual([]);
        const run = await followed;
        expect(run.stdout + run.stderr).toContain('does not trust the model the goal was queued with');
        expect(run.code).toBe(1);
        const listed = await runCli(
          ['tasks', 'list', '--all', '--json', '--cwd', submitter.HOME ?? '', '--repo', remote],
          { env: submitter },
        );
        const [task] = JSON.parse(listed.stdout) as {
          status: string;
          fail_reason: string;
          session_id: string;
        }[];
        expect(task?.status).toBe('failed');
        expect(task?.fail_reason).toContain('"queuedModels"');
        const shown = await runCli(
          ['sessions', 'show', task?.session_id ?? '', '--events', '--cwd', submitter.HOME ?? ''],
          {
            env: submitter,
          },
        );
        expect(shown.stdout + shown.stderr).toContain('does not trust');
      } finally {
        await schema.drop();
      }
    },
  );
});
