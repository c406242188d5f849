import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { SessionStore } from '../../src/store/session-store.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { runCliUntil } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * The long command writes the pid of the process that would keep running (the sleep), then a line
 * of output: taskweave is killed once that line shows as progress, so the pid is surely written.
 */
const LONG_COMMAND = 'sleep 300 & echo $! >> started.txt; echo started; wait';

describe('a command left running by kill -9 (issue 11, finding 4)', () => {
  it.each(['off', 'workspace-write'])(
    'resume ends it before going on, and the model is told (sandbox %s)',
    async (sandbox) => {
      const workspace = await tempWorkspaceRoot('taskweave-orphan-');
      const scripts = await tempWorkspaceRoot('taskweave-script-');
      const model = `script:${await writeScript(scripts, {
        turns: [
          { when: 'ended them when the work resumed', text: 'The install was interrupted; I will check it.' },
          { when: 'install it', toolCalls: [{ name: 'run_command', args: { command: LONG_COMMAND } }] },
        ],
      })}`;
      const common = ['--approval', 'auto', '--sandbox', sandbox, '--model', model, '--cwd', workspace];
      const killed = await runCliUntil(['run', ...common, '--json', 'install it'], {
        when: (out) => out.includes('"tool_progress"'),
        delayMs: 100,
      });
      expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
      const [orphan] = (await readFile(path.join(workspace, 'started.txt'), 'utf8'))
        .trim()
        .split('\n')
        .map(Number);
      expect(isAlive(orphan as number), 'the command outlived taskweave').toBe(true);

      const resumed = await runCli(['resume', ...common, '--json']);
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      expect(isAlive(orphan as number), 'the orphaned command was not ended').toBe(false);
      expect(parseJsonLines(resumed.stdout).at(-1)).toMatchObject({
        type: 'response_complete',
        final_answer: 'The install was interrupted; I will check it.',
      });
      const db = openDatabase({ path: path.join(workspace, '.taskweave/taskweave.db') });
      try {
        const sessions = new SessionStore(db);
        const events = sessions.events(sessions.lastSession()!.id);
        expect(
          events.find((event) => event.type === 'agent_update' && event.update_type === 'agent_note'),
        ).toMatchObject({
          content: expect.stringContaining('was still running after taskweave was killed'),
        });
        expect(events.find((event) => event.type === 'tool_error')).toMatchObject({
          name: 'run_command',
          error: expect.stringContaining('taskweave ended them when the work resumed'),
        });
        expect(db.sqlite.prepare('select count(*) as n from commands').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    },
    60_000,
  );
});
