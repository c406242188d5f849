import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/tools/process/find-on-path.js';
import { CLI_PATH } from '../helpers/cli.js';

const realBwrap = findOnPath('bwrap');
if (realBwrap === undefined) throw new Error('This test needs bubblewrap');
const TRACE_PRELOAD = path.join(import.meta.dirname, '..', '..', 'bench', 'load-trace.mjs');
/**
 * The CLI as tsc built it (dist/cli/main.js, one file per module): the load trace sees each of its
 * modules when it is imported, in order among the programs started. The bundle runs the same code.
 */
const MAIN = path.join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const RUN_MAIN = `import { main } from ${JSON.stringify(MAIN)}; process.exitCode = await main(process.argv);`;

describe('the sandbox probe of a run (issue 22, start-up)', () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it.each([
    ['run', (script: string) => ['run', '--model', `script:${script}`, 'say hi']],
    ['work', (script: string) => ['work', '--model', `script:${script}`]],
  ])(
    '%s starts it while its code loads, not after: the probe comes before the agent’s modules',
    async (command, args) => {
      folder = await mkdtemp(path.join(tmpdir(), 'taskweave-probe-ahead-'));
      const bin = path.join(folder, 'bin');
      await mkdir(bin);
      const trace = path.join(folder, 'trace.tsv');
      // The real bwrap, noting in the load trace when it was started (between the modules loaded so far).
      await writeFile(
        path.join(bin, 'bwrap'),
        `#!/bin/sh\nprintf 'PROBE\\t\\n' >> "$TASKWEAVE_LOAD_TRACE"\nexec ${realBwrap} "$@"\n`,
      );
      await chmod(path.join(bin, 'bwrap'), 0o755);
      const script = path.join(folder, 'script.json');
      await writeFile(script, JSON.stringify({ turns: [{ text: 'Nothing to do.' }] }));
      if (command === 'work') {
        const added = spawnSync(process.execPath, [CLI_PATH, 'tasks', 'add', 'say hi', '-C', folder], {
          encoding: 'utf8',
        });
        expect(added.status, added.stderr).toBe(0);
      }
      const result = spawnSync(
        process.execPath,
        // process.argv of `node -e` has no script: a word in its place, as main() skips two.
        [
          '--import',
          TRACE_PRELOAD,
          '--input-type=module',
          '-e',
          RUN_MAIN,
          '--',
          'taskweave',
          ...args(script),
          '-C',
          folder,
        ],
        {
          encoding: 'utf8',
          env: {
            ...process.env,
            NO_COLOR: '1',
            PATH: `${bin}:${process.env.PATH}`,
            TASKWEAVE_LOAD_TRACE: trace,
          },
        },
      );
      expect(result.status, result.stderr).toBe(0);
      const lines = (await readFile(trace, 'utf8')).split('\n');
      // When bwrap was started, in the process's own order of events (the trace notes each spawn).
      const probe = lines.findIndex((line) => line.startsWith('SPAWN\t') && line.endsWith('bwrap'));
      // The agent's run is initialised once the command's action runs; before, the probe came
      // after all of it.
      const agent = lines.findIndex((line) => line.includes('/dist/agent/run/run-agent.js'));
      expect(probe).toBeGreaterThan(0);
      expect(agent).toBeGreaterThan(0);
      expect(probe).toBeLessThan(agent);
      // Probed once: the runtime took the answer of the probe started ahead.
      expect(lines.filter((line) => line.startsWith('PROBE\t'))).toHaveLength(1);
    },
  );

  it('probes nothing when the command line turns the sandbox off', async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-probe-ahead-'));
    const bin = path.join(folder, 'bin');
    await mkdir(bin);
    const probed = path.join(folder, 'probed');
    await writeFile(path.join(bin, 'bwrap'), `#!/bin/sh\ntouch ${probed}\nexec ${realBwrap} "$@"\n`);
    await chmod(path.join(bin, 'bwrap'), 0o755);
    const script = path.join(folder, 'script.json');
    await writeFile(script, JSON.stringify({ turns: [{ text: 'Nothing to do.' }] }));
    const result = spawnSync(
      process.execPath,
      [CLI_PATH, 'run', '-C', folder, '--sandbox', 'off', '--model', `script:${script}`, 'say hi'],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}` } },
    );
    expect(result.status, result.stderr).toBe(0);
    await expect(readFile(probed)).rejects.toThrow(/ENOENT/);
  });
});
