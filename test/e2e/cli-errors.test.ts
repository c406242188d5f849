import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverEventSchema } from '../../src/events/registry.js';
import { pipeIntoHead, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** Runs `taskweave <args> | head -1` in bash; resolves with taskweave's exit code and stderr. */

describe('errors a new user meets', () => {
  it('piping a run into head ends it quietly (no EPIPE stack trace); the session is left stopped', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-epipe-');
    const codeFile = path.join(workspace, '..', `${path.basename(workspace)}.code`);
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        { text: 'Counting.', toolCalls: [{ name: 'run_command', args: { command: 'sleep 0.5; seq 1 5' } }] },
        { text: 'Again.', toolCalls: [{ name: 'run_command', args: { command: 'sleep 0.5; seq 1 5' } }] },
        { text: 'Done.' },
      ],
    });
    // The commands run (auto approval), so the run is still going when head has gone.
    const piped = await pipeIntoHead(
      ['run', '--approval', 'auto', '--model', `script:${script}`, '--cwd', workspace, 'count'],
      codeFile,
    );
    expect(piped.head).toMatch(/^taskweave · /);
    expect(piped.stderr).not.toContain('EPIPE');
    expect(piped.stderr).not.toContain('    at ');
    expect(piped.code).toBe(3);
    const sessions = await runCli(['sessions', 'list', '--json', '--cwd', workspace]);
    expect(JSON.parse(sessions.stdout)[0].last_run_status).toBe('stopped');

    const listed = await pipeIntoHead(
      ['sessions', 'show', 'last', '--events', '--full', '--cwd', workspace],
      codeFile,
    );
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
  });

  it('an unknown session id is named before a missing model (resume, run --resume)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-errors-');
    const noModel = {
      XDG_CONFIG_HOME: await tempWorkspaceRoot('taskweave-xdg-'),
      TASKWEAVE_MODEL: '',
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      GOOGLE_GENERATIVE_AI_API_KEY: '',
      GEMINI_API_KEY: '',
    };
    for (const args of [
      ['resume', 'nope'],
      ['run', '--resume', 'nope', 'go on'],
    ]) {
      const run = await runCli([...args, '--cwd', workspace], { env: noModel });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('There is no session whose id starts with "nope"');
      expect(run.stderr).not.toContain('No model is configured');
    }
  });

  it('--json prints the protocol error message when the run cannot start', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-json-');
    for (const [args, code] of [
      [['--model', 'nope:x'], 'configuration'],
      [['--bogus'], 'usage'],
    ] as const) {
      const run = await runCli(['run', '--json', ...args, '--cwd', workspace, 'goal']);
      expect(run.code).toBe(2);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const event = serverEventSchema.parse(JSON.parse(lines[0] ?? ''));
      expect(event).toMatchObject({ type: 'error', code });
    }
  });

  it('--base-url not-a-url and --db on a file that is not a database are configuration errors (exit 2) naming the value', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-config-');
    const badUrl = await runCli([
      'run',
      '--base-url',
      'not-a-url',
      '--model',
      'openai:gpt-4.1',
      '--cwd',
      workspace,
      'x',
    ]);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('"not-a-url"');
    const notADatabase = path.join(workspace, 'notadb');
    await writeFile(notADatabase, 'this is not a database\n'.repeat(100));
    for (const args of [
      ['run', '--model', `script:${await writeScript(workspace, { turns: [{ text: 'hi' }] })}`, 'x'],
      ['sessions', 'list'],
      ['tasks', 'list'],
    ]) {
      const run = await runCli([...args, '--db', notADatabase, '--cwd', workspace]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`The database file ${notADatabase} is not an SQLite database`);
    }
  });
});
