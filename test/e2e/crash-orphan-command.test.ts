import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
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
 * The long command starts a sleep that would keep running, then prints a line: taskweave is killed
 * once that line shows as progress. The sleep's duration is a token no other process has, so its
 * host pid is found from outside (in the sandbox's PID namespace `$!` is not the host's pid).
 */
const TOKEN = `300.${process.pid}${Date.now() % 100_000}`;
const LONG_COMMAND = `sleep ${TOKEN} & echo started; wait`;

function pidsRunningToken(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${TOKEN}\0`;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(isAlive);
}

async function diesWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  return !isAlive(pid);
}

/**
 * Unconfined, a command's processes outlive a `kill -9` of taskweave until the next resume ends
 * them. In the sandbox they die with it (`--die-with-parent` and the PID namespace: issue 23,
 * item 19), and resume finds them gone.
 */
const CASES = [
  {
    sandbox: 'off',
    outlives: true,
    resultText: 'ended them when the work resumed',
    note: 'was still running after taskweave was killed',
  },
  {
    sandbox: 'workspace-write',
    outlives: false,
    resultText: 'it was no longer running when the work resumed',
    note: 'it had ended by the time the work resumed',
  },
];

describe('a command left running by kill -9 (issue 11, finding 4)', () => {
  it.each(CASES)(
    'resume handles it before going on, and the model is told (sandbox $sandbox)',
    async ({ sandbox, outlives, resultText, note }) => {
      const workspace = await tempWorkspaceRoot('taskweave-orphan-');
      const scripts = await tempWorkspaceRoot('taskweave-script-');
      const model = `script:${await writeScript(scripts, {
        turns: [
          { when: resultText, text: 'The install was interrupted; I will check it.' },
          { when: 'install it', toolCalls: [{ name: 'run_command', args: { command: LONG_COMMAND } }] },
        ],
      })}`;
      const common = ['--approval', 'auto', '--sandbox', sandbox, '--model', model, '--cwd', workspace];
      let orphan: number | undefined;
      const killed = await runCliUntil(['run', ...common, '--json', 'install it'], {
        when: (out) => {
          if (!out.includes('"tool_progress"')) return false;
          orphan = pidsRunningToken()[0];
          return orphan !== undefined;
        },
        delayMs: 100,
      });
      expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
      expect(orphan, 'the sleep was not found running').toBeDefined();
      if (outlives) expect(isAlive(orphan as number), 'the command outlived taskweave').toBe(true);
      else
        expect(await diesWithin(orphan as number, 3_000), 'the sandboxed command outlived taskweave').toBe(
          true,
        );

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
          content: expect.stringContaining(note),
        });
        expect(events.find((event) => event.type === 'tool_error')).toMatchObject({
          name: 'run_command',
          error: expect.stringContaining(resultText),
        });
        expect(db.sqlite.prepare('select count(*) as n from commands').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    },
    60_000,
  );
});
