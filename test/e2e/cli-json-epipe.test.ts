import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pipeIntoHead, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** Runs `taskweave <args> | head -1` in bash; resolves with taskweave's exit code, its stderr and what head printed. */

describe('--json piped into head', () => {
  for (const plan of [false, true]) {
    it(`stops the run quietly (status stopped, its goal not left in progress)${plan ? ', in a plan' : ''}`, async () => {
      const workspace = await tempWorkspaceRoot('taskweave-json-epipe-');
      const codeFile = path.join(workspace, '..', `${path.basename(workspace)}.code`);
      const work = [
        { toolCalls: [{ name: 'run_command', args: { command: 'seq 1 5' } }] },
        { toolCalls: [{ name: 'run_command', args: { command: 'seq 1 5' } }] },
      ];
      const turns = plan
        ? [
            {
              toolCalls: [
                {
                  name: 'plan_actions',
                  args: { tasks: [{ id: 'a', title: 'Count', description: 'count twice' }] },
                },
              ],
            },
            ...work.map((turn) => ({ ...turn, task: 'a' })),
            { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'counted' } }] },
            { text: 'Done.' },
          ]
        : [...work, { text: 'Done.' }];
      const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
      const args = [
        'run',
        '--json',
        '-y',
        '--approval',
        'auto',
        '--model',
        `script:${script}`,
        '--cwd',
        workspace,
      ];
      const piped = await pipeIntoHead([...args, 'count'], codeFile);
      expect(JSON.parse(piped.head)).toMatchObject({ type: 'agent_update', update_type: 'agent_start' });
      expect(piped.stderr).toBe('');
      expect(piped.code).toBe(3);
      const sessions = await runCli(['sessions', 'list', '--json', '--cwd', workspace]);
      expect(JSON.parse(sessions.stdout)[0].last_run_status).toBe('stopped');
      const tasks = await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace]);
      expect(JSON.parse(tasks.stdout).map((task: { status: string }) => task.status)).not.toContain(
        'in_progress',
      );
    });
  }
});
