import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareRemote, clusterSchema, clusterScript, goalToken } from '../../bench/cluster-harness.js';
import { runCli } from '../helpers/cli.js';

/*
 * `--repo <remote>` from the command line: a repository's queue of a shared store. Refused
 * without a shared store or next to --queue; with a real server, `run --repo` from one machine
 * queues the goal for the workers (never running it itself) and shows its steps while a worker
 * on another machine (its own HOME and clone) runs it, and `apply --repo` in a third checkout
 * fetches the goal branch the worker pushed and merges it.
 */

async function home(): Promise<NodeJS.ProcessEnv> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-repo-home-'));
  return {
    HOME: folder,
    XDG_CONFIG_HOME: path.join(folder, '.config'),
    XDG_DATA_HOME: path.join(folder, '.local', 'share'),
    TASKWEAVE_STORE: '',
    TASKWEAVE_CLONES: '',
    GIT_AUTHOR_NAME: 'worker',
    GIT_AUTHOR_EMAIL: 'worker@example.com',
    GIT_COMMITTER_NAME: 'worker',
    GIT_COMMITTER_EMAIL: 'worker@example.com',
  };
}

describe('--repo on the command line', () => {
  it('is refused without a shared store, and next to --queue (exit 2, saying why)', async () => {
    const env = await home();
    const cwd = env.HOME ?? '';
    const alone = await runCli(['tasks', 'add', '--cwd', cwd, '--repo', '/srv/app.git', 'do it'], { env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--repo needs a shared store');
    const both = await runCli(
      ['tasks', 'add', '--cwd', cwd, '--repo', '/srv/app.git', '--queue', 'other', 'do it'],
      { env },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--repo and --queue were both given');
    const work = await runCli(['work', '--cwd', cwd, '--repo', '/srv/app.git'], { env });
    expect(work.code).toBe(2);
    expect(work.stderr).toContain('--repo needs a shared store');
  });

  const server = process.env.TASKWEAVE_TEST_POSTGRES;
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set (.ci/run sets it)', () => {});
    return;
  }

  it('run --repo queues for the workers and follows; the worker pushes; apply --repo fetches and merges', async () => {
    const schema = await clusterSchema(server);
    try {
      const root = await mkdtemp(path.join(tmpdir(), 'taskweave-repo-'));
      const remote = bareRemote(root, 'app');
      const script = path.join(root, 'script.json');
      await writeFile(script, JSON.stringify(clusterScript(2, 0)));
      // A provider key in the submitter's environment never reaches the shared store.
      const submitter: NodeJS.ProcessEnv = {
        ...(await home()),
        TASKWEAVE_STORE: schema.url,
        OPENAI_API_KEY: 'sk-cluster-secret-1234',
      };
      const worker: NodeJS.ProcessEnv = { ...(await home()), TASKWEAVE_STORE: schema.url };
      const goal = `${goalToken(0)} write the three files`;
      const model = ['--model', `script:${script}`, '--approval', 'auto', '--sandbox', 'off'];
      // No worker yet: the goal waits in the repository's queue (run never runs it itself).
      const queued = await runCli(
        ['run', '--no-wait', ...model, '--cwd', submitter.HOME ?? '', '--repo', remote, goal],
        { env: submitter },
      );
      expect(queued.code).toBe(5);
      expect(queued.stderr + queued.stdout).toContain(`Queued for the workers of ${remote}`);
      const listed = await runCli(
        ['tasks', 'list', '--json', '--cwd', submitter.HOME ?? '', '--repo', remote],
        {
          env: submitter,
        },
      );
      expect(JSON.parse(listed.stdout)).toMatchObject([{ status: 'pending' }]);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      const stored = (await client.query('SELECT queue, run_settings FROM tasks')).rows;
      await client.end();
      expect(stored).toHaveLength(1);
      expect(stored[0].queue).toBe(`repo:${remote.replace(/\.git$/, '')}`);
      expect(Object.keys(JSON.parse(stored[0].run_settings)).sort()).toEqual(
        ['approval', 'loop', 'maxSteps', 'model', 'network', 'plan', 'sandbox'].sort(),
      );
      expect(JSON.stringify(stored)).not.toContain('sk-cluster-secret');
      // A second goal from the same machine, followed until a worker has run it.
      const followed = runCli(
        ['run', ...model, '--cwd', submitter.HOME ?? '', '--repo', remote, `${goalToken(1)} and three more`],
        { env: submitter, timeoutMs: 60_000 },
      );
      for (let tries = 0; tries < 100; tries += 1) {
        const now = await runCli(
          ['tasks', 'list', '--json', '--cwd', submitter.HOME ?? '', '--repo', remote],
          {
            env: submitter,
          },
        );
        if (JSON.parse(now.stdout).length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // A worker on another machine drains the queue in its own clone.
      const worked = await runCli(['work', '--yes', ...model, '--cwd', worker.HOME ?? '', '--repo', remote], {
        env: worker,
        timeoutMs: 60_000,
      });
      expect(worked.stderr + worked.stdout).toContain('queue: 2 completed, 0 failed');
      expect(worked.code).toBe(0);
      const run = await followed;
      expect(run.stdout + run.stderr).toContain('Queued for the workers of');
      expect(run.stdout).toContain('✓ [c] Write g1-c.txt');
      expect(run.code).toBe(0);
      const clones = path.join(worker.HOME ?? '', '.local', 'share', 'taskweave', 'clones');
      expect(execFileSync('ls', [clones], { encoding: 'utf8' }).trim()).toMatch(/^[0-9a-f]{16}$/);
      const branches = execFileSync(
        'git',
        ['for-each-ref', '--format=%(refname:short)', 'refs/heads/taskweave/'],
        {
          cwd: remote,
          encoding: 'utf8',
        },
      )
        .trim()
        .split('\n')
        .filter((branch) => !branch.includes('.'));
      expect(branches).toHaveLength(2);
      const goalId = branches
        .map((branch) => branch.slice('taskweave/'.length))
        .find((id) =>
          execFileSync('git', ['ls-tree', '--name-only', `taskweave/${id}`], {
            cwd: remote,
            encoding: 'utf8',
          }).includes('g0-c.txt'),
        );
      if (!goalId) throw new Error('no goal branch holds goal 0');
      // The user's own checkout has no goal branch until apply --repo fetches it.
      const checkout = path.join(root, 'checkout');
      execFileSync('git', ['clone', '-q', remote, checkout]);
      const apply = await runCli(['apply', goalId, '--cwd', checkout, '--repo', 'origin'], {
        env: submitter,
      });
      expect(apply.stderr).toBe('');
      expect(apply.code).toBe(0);
      expect(await readFile(path.join(checkout, 'g0-c.txt'), 'utf8')).toBe('goal 0 task c\n');
    } finally {
      await schema.drop();
    }
  });

  it('work --watch on two repositories waits on both and stops on one Ctrl-C, said once', async () => {
    const schema = await clusterSchema(server);
    try {
      const root = await mkdtemp(path.join(tmpdir(), 'taskweave-repo-'));
      const remotes = [bareRemote(root, 'one'), bareRemote(root, 'two')];
      const script = path.join(root, 'script.json');
      await writeFile(script, JSON.stringify(clusterScript(1, 0)));
      const env: NodeJS.ProcessEnv = { ...(await home()), TASKWEAVE_STORE: schema.url };
      let output = '';
      let interrupted = false;
      const waiting = runCli(
        [
          'work',
          '--watch',
          '--model',
          `script:${script}`,
          '--cwd',
          env.HOME ?? '',
          ...remotes.flatMap((remote) => ['--repo', remote]),
        ],
        {
          env,
          onSpawn: (child) => {
            const keep = (chunk: Buffer) => {
              output += chunk.toString();
              if (interrupted || !output.includes('The queues of 2 repositories are empty')) return;
              interrupted = true;
              child.kill('SIGINT');
            };
            child.stdout?.on('data', keep);
            child.stderr?.on('data', keep);
          },
        },
      );
      const ended = await waiting;
      expect(ended.code, output).toBe(0);
      // Idle (both queues empty): it stops at once and says so, once (issue 46, item 7).
      expect(output.match(/stopping now: no task is running/g)).toHaveLength(1);
      expect(output).not.toContain('at the next step boundary');
    } finally {
      await schema.drop();
    }
  });
});
