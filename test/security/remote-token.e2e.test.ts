import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareRemote, clusterSchema } from '../../bench/cluster-harness.js';
import { runCli, writeScript } from '../helpers/cli.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';

/*
 * Issue 39, item 6: `work --repo http://user:token@host/…` kept the token in the worker's clone
 * config (where tasks read it), in git's argv (where `ps` shows it), and a command's output took it
 * to the shared store. A real git smart-HTTP server on 127.0.0.1 (`git http-backend` behind basic
 * auth) and a real worker: the token is in none of those places, and the worker still pushes.
 */

const USER = 'bot-user';
const TOKEN = 'tok-5e9d7c2a41';
const GOAL = '[token-goal] record what a task can see';

/** What the task's command writes into the goal's branch: the clone's config, its environment, the processes. */
const LOOK_AROUND = [
  'cat "$(git rev-parse --git-common-dir)/config"',
  'echo ---',
  'env',
  'echo ---',
  'ps -eo args',
].join('; ');

function goalScript() {
  return {
    turns: [
      {
        when: '[token-goal]',
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                { id: 'look', title: 'Look around', description: 'record what is seen', depends_on: [] },
              ],
            },
          },
        ],
      },
      {
        task: 'look',
        toolCalls: [
          { name: 'run_command', args: { command: `{ ${LOOK_AROUND}; } > seen.txt 2>&1; echo ok` } },
        ],
      },
      { task: 'look', toolCalls: [{ name: 'task_completed', args: { summary: 'recorded' } }] },
      { text: 'Done.', toolCalls: [{ name: 'final_answer', args: { answer: 'Done.' } }] },
    ],
  };
}

async function machine(extra: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-token-home-'));
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    TASKWEAVE_MODEL: '',
    TASKWEAVE_CLONES: '',
    GIT_AUTHOR_NAME: 'worker',
    GIT_AUTHOR_EMAIL: 'worker@example.com',
    GIT_COMMITTER_NAME: 'worker',
    GIT_COMMITTER_EMAIL: 'worker@example.com',
    ...extra,
  };
}

/** A `git` first on PATH that writes each command line it is given to `log`, then runs the real git. */
async function gitArgvRecorder(folder: string, log: string): Promise<string> {
  const bin = path.join(folder, 'bin');
  await mkdir(bin, { recursive: true });
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const shim = path.join(bin, 'git');
  await writeFile(shim, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  await chmod(shim, 0o755);
  return bin;
}

const postgres = process.env.TASKWEAVE_TEST_POSTGRES;

describe("an http remote's token stays with git (issue 39, item 6)", { timeout: 120_000 }, () => {
  it.skipIf(postgres === undefined || postgres === '')(
    'is in neither the clone config, git argv nor what a task sees, and the push still authenticates',
    async () => {
      const schema = await clusterSchema(postgres ?? '');
      const root = await mkdtemp(path.join(tmpdir(), 'taskweave-token-'));
      const served = path.join(root, 'served');
      await mkdir(served);
      bareRemote(served, 'app');
      const server = await startGitHttpServer({ root: served, username: USER, password: TOKEN });
      try {
        const remote = `${server.url.replace('http://', `http://${USER}:${TOKEN}@`)}/app.git`;
        const script = `script:${await writeScript(root, goalScript())}`;
        const argvLog = path.join(root, 'git-argv.log');
        const bin = await gitArgvRecorder(root, argvLog);
        const settings = ['--model', script, '--approval', 'auto', '--sandbox', 'off', '--plan', 'always'];
        const submitter = await machine({ TASKWEAVE_STORE: schema.url });
        const worker = await machine({ TASKWEAVE_STORE: schema.url, PATH: `${bin}:${process.env.PATH}` });
        const queued = await runCli(
          ['run', '--no-wait', ...settings, '--cwd', submitter.HOME ?? '', '--repo', remote, GOAL],
          { env: submitter },
        );
        expect(queued.code, queued.stderr).toBe(5);
        const worked = await runCli(
          ['work', '--yes', ...settings, '--cwd', worker.HOME ?? '', '--repo', remote],
          {
            env: worker,
            timeoutMs: 90_000,
          },
        );
        expect(worked.stderr + worked.stdout).toContain('queue: 1 completed, 0 failed');
        expect(worked.code).toBe(0);

        // The push authenticated: the goal's branch with the task's file is on the remote.
        expect(
          server.requests.some((request) => request.authorized && request.path.endsWith('/git-receive-pack')),
        ).toBe(true);
        const bare = path.join(served, 'app.git');
        const branches = execFileSync(
          'git',
          ['for-each-ref', '--format=%(refname:short)', 'refs/heads/taskweave/'],
          {
            cwd: bare,
            encoding: 'utf8',
          },
        )
          .trim()
          .split('\n');
        const goalBranch = branches.find((branch) => !branch.includes('.'));
        const seen = execFileSync('git', ['show', `${goalBranch}:seen.txt`], { cwd: bare, encoding: 'utf8' });
        // What the task saw is real (its clone's config, its environment, the processes)…
        expect(seen).toContain(`url = ${server.url}/app.git`);
        expect(seen).toContain('PATH=');
        expect(seen).toContain('ps -eo args');
        expect(seen).toMatch(/taskweave\.js work .*--repo http:\/\/127\.0\.0\.1:\d+\/app/);
        // …and holds no token, nor does the clone's config or any git command line.
        expect(seen).not.toContain(TOKEN);
        const clones = path.join(worker.XDG_DATA_HOME ?? '', 'taskweave', 'clones');
        const [clone] = await readdir(clones);
        const config = await readFile(path.join(clones, clone ?? '', '.git', 'config'), 'utf8');
        expect(config).toContain(`${server.url}/app.git`);
        expect(config).not.toContain(TOKEN);
        const argv = await readFile(argvLog, 'utf8');
        expect(argv).toContain('push');
        expect(argv).not.toContain(TOKEN);
        // Nor does anything the shared store keeps of the session.
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        const stored = await client.query('SELECT * FROM events');
        await client.end();
        expect(stored.rows.length).toBeGreaterThan(0);
        expect(JSON.stringify(stored.rows)).not.toContain(TOKEN);
      } finally {
        await server.close();
        await schema.drop();
      }
    },
  );
});
