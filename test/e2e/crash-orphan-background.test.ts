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

/** A sleep no other process runs, so that its pid is found from outside. */
const TOKEN = `301.${process.pid}${Date.now() % 100_000}`;
/** The foreground command the kill interrupts: a sleep no other process runs. */
const FOREGROUND = `30.${process.pid}${Date.now() % 100_000}`;

function pidsRunning(seconds: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${seconds}\0`;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(isAlive);
}

describe('a background command left running by kill -9 of taskweave', () => {
  it('is ended on resume, reported as the end of the background command (not a failed call)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-orphan-bg-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, {
      turns: [
        {
          when: 'background command bg1',
          text: 'The server was ended by the crash; I will start it again when needed.',
        },
        {
          when: 'serve it',
          toolCalls: [
            {
              name: 'run_command',
              args: { command: `sleep ${TOKEN} & echo started; wait`, background: true },
            },
          ],
        },
        { toolCalls: [{ name: 'run_command', args: { command: `sleep ${FOREGROUND}` } }] },
      ],
    })}`;
    // Unconfined: in the sandbox a command dies with taskweave (--die-with-parent) and no orphan is left.
    const common = ['--approval', 'auto', '--sandbox', 'off', '--model', model, '--cwd', workspace];
    let orphan: number | undefined;
    const killed = await runCliUntil(['run', ...common, '--json', 'serve it'], {
      when: (out) => {
        // Once the foreground command runs, its call and its record are on disk.
        if (!out.includes(`"sleep ${FOREGROUND}"`) || pidsRunning(FOREGROUND).length === 0) return false;
        orphan = pidsRunning(TOKEN)[0];
        return orphan !== undefined;
      },
      delayMs: 100,
    });
    expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
    expect(orphan, 'the background sleep was not found running').toBeDefined();
    expect(isAlive(orphan as number), 'the background command outlived taskweave').toBe(true);

    const resumed = await runCli(['resume', ...common, '--json']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(isAlive(orphan as number), 'the orphaned background command was not ended').toBe(false);
    expect(parseJsonLines(resumed.stdout).at(-1)).toMatchObject({
      type: 'response_complete',
      final_answer: 'The server was ended by the crash; I will start it again when needed.',
    });
    const db = openDatabase({ path: path.join(workspace, '.taskweave/taskweave.db') });
    try {
      const sessions = new SessionStore(db);
      const events = sessions.events(sessions.lastSession()!.id);
      expect(events.find((event) => event.type === 'background_ended')).toMatchObject({
        command_id: 'bg1',
        state: 'stopped',
        stopped_by: 'a resume after a crash',
      });
      const notes = events.filter(
        (event) => event.type === 'agent_update' && event.update_type === 'agent_note',
      );
      expect(notes.map((note) => ('content' in note ? note.content : ''))).toContainEqual(
        expect.stringContaining('The background command bg1 (`sleep'),
      );
      // The background call itself succeeded long ago: only the foreground sleep failed.
      const failed = events.filter((event) => event.type === 'tool_error');
      expect(failed).toHaveLength(1);
      expect(db.sqlite.prepare('select count(*) as n from commands').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  }, 60_000);
});
