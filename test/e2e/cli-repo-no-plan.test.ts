import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareRemote, clusterSchema } from '../../bench/cluster-harness.js';
import { runCli } from '../helpers/cli.js';

/*
 * Issue 40, item 1: under `--repo`, a goal answered without a plan worked in the worker's clone
 * and was never pushed (it showed `completed`, its files on no branch of the remote). Every goal
 * now ends on a goal branch pushed to the remote, and the next goal starts from a clean checkout.
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

const server = process.env.TASKWEAVE_TEST_POSTGRES;

describe('--repo goals without a plan', () => {
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set (.ci/run sets it)', () => {});
    return;
  }

  it('each goal answered without a plan reaches the remote on its goal branch, the next starting clean', async () => {
    const schema = await clusterSchema(server);
    try {
      const root = await mkdtemp(path.join(tmpdir(), 'taskweave-repo-no-plan-'));
      const remote = bareRemote(root, 'app');
      const script = path.join(root, 'script.json');
      const write = (file: string) => ({
        toolCalls: [{ name: 'write_file', args: { path: file, content: `${file} by the goal\n` } }],
      });
      const answer = { text: 'written' };
      await writeFile(
        script,
        JSON.stringify({
          latencyMs: 0,
          turns: [
            { when: 'first goal', ...write('first.txt') },
            { when: 'first goal', ...answer },
            { when: 'second goal', ...write('second.txt') },
            { when: 'second goal', ...answer },
          ],
        }),
      );
      const env: NodeJS.ProcessEnv = { ...(await home()), TASKWEAVE_STORE: schema.url };
      const cwd = env.HOME ?? '';
      const model = [
        '--model',
        `script:${script}`,
        '--approval',
        'auto',
        '--sandbox',
        'off',
        '--plan',
        'never',
      ];
      for (const goal of ['first goal', 'second goal']) {
        const added = await runCli(['tasks', 'add', '--cwd', cwd, '--repo', remote, goal], { env });
        expect(added.code, added.stderr).toBe(0);
      }
      const worked = await runCli(['work', '--yes', ...model, '--cwd', cwd, '--repo', remote], {
        env,
        timeoutMs: 90_000,
      });
      expect(worked.stderr + worked.stdout).toContain('queue: 2 completed, 0 failed');
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
        .filter((branch) => branch !== '');
      expect(branches).toHaveLength(2);
      const files = branches.map((branch) =>
        execFileSync('git', ['ls-tree', '--name-only', branch], { cwd: remote, encoding: 'utf8' })
          .trim()
          .split('\n'),
      );
      // Each goal's branch holds its own file and not the other goal's: the second started clean.
      expect(files.map((names) => names.sort().join(' ')).sort()).toEqual([
        'first.txt readme.txt',
        'readme.txt second.txt',
      ]);
      const first = branches.find((_, index) => files[index]?.includes('first.txt')) ?? '';
      expect(execFileSync('git', ['show', `${first}:first.txt`], { cwd: remote, encoding: 'utf8' })).toBe(
        'first.txt by the goal\n',
      );
    } finally {
      await schema.drop();
    }
  }, 150_000);
});
