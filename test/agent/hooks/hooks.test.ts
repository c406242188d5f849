import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/config-file.js';
import type { HooksConfig } from '../../../src/config/hooks-config.js';
import { mockModel, promptText } from '../../helpers/mock-model.js';
import { runWithHarness, tempWorkspaceRoot } from '../../helpers/run-harness.js';
import { runsEverything } from '../../helpers/safety.js';

function withHooks(hooks: HooksConfig) {
  return { ...runsEverything(), hooks };
}

function hookEvents(events: { type: string }[]) {
  return events.filter(
    (
      event,
    ): event is Extract<(typeof events)[number], object> & {
      update_type: 'hook_ran';
      [key: string]: unknown;
    } => (event as { update_type?: string }).update_type === 'hook_ran',
  );
}

describe('hooks of the user config, as real child processes', () => {
  it('a beforeTool hook that exits non-zero refuses the call, and the model reads its stderr', async () => {
    const root = await tempWorkspaceRoot();
    let seen = '';
    const model = mockModel([
      { toolCalls: [{ name: 'run_command', args: { command: 'git push origin main' } }] },
      (options) => {
        seen = promptText(options);
        return { text: 'I will not push.' };
      },
    ]);
    const hook =
      'input=$(cat); case "$input" in *"git push"*) echo "pushing is not allowed here" >&2; exit 2;; esac';
    const { result, events } = await runWithHarness({
      model,
      workspaceRoot: root,
      safety: withHooks({ beforeTool: [{ match: 'run_command', command: hook }] }),
    });
    expect(result.status).toBe('completed');
    expect(seen).toContain('pushing is not allowed here');
    expect(seen).toContain('Refused by a beforeTool hook');
    const error = events.find((event) => event.type === 'tool_error');
    expect(error && 'error' in error ? error.error : '').toContain('pushing is not allowed here');
    const [ran] = hookEvents(events);
    expect(ran).toMatchObject({
      hook: 'beforeTool',
      tool: 'run_command',
      exit_code: 2,
      match: 'run_command',
    });
    expect(ran?.message).toBe('pushing is not allowed here');
  });

  it('lets a call its beforeTool hook accepts run, and runs afterTool hooks with the result on stdin', async () => {
    const root = await tempWorkspaceRoot();
    const model = mockModel([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hello' } }] },
      { text: 'Written.' },
    ]);
    const { result, events } = await runWithHarness({
      model,
      workspaceRoot: root,
      safety: withHooks({
        beforeTool: [{ match: 'edit_file|write_file', command: 'cat > before.json' }],
        afterTool: [
          { match: 'write_*', command: 'cat > after.json' },
          { match: 'run_command', command: 'touch never-run' },
        ],
      }),
    });
    expect(result.status).toBe('completed');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('hello');
    const before = JSON.parse(await readFile(path.join(root, 'before.json'), 'utf8'));
    expect(before).toMatchObject({ hook: 'beforeTool', tool: 'write_file', args: { path: 'a.txt' } });
    const after = JSON.parse(await readFile(path.join(root, 'after.json'), 'utf8'));
    expect(after).toMatchObject({ hook: 'afterTool', tool: 'write_file', result: { is_error: false } });
    expect(after.workspace).toBe(root);
    expect(existsSync(path.join(root, 'never-run'))).toBe(false);
    expect(hookEvents(events).map((event) => [event.hook, event.exit_code])).toEqual([
      ['beforeTool', 0],
      ['afterTool', 0],
    ]);
  });

  it("an afterTool hook's failure is reported, not fatal", async () => {
    const model = mockModel([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] },
      { text: 'Done.' },
    ]);
    const { result, events } = await runWithHarness({
      model,
      safety: withHooks({ afterTool: [{ command: 'echo "formatter broke" >&2; exit 3' }] }),
    });
    expect(result.status).toBe('completed');
    expect(events.some((event) => event.type === 'tool_complete')).toBe(true);
    expect(hookEvents(events)[0]).toMatchObject({
      hook: 'afterTool',
      exit_code: 3,
      message: 'formatter broke',
    });
  });

  it('kills a hook that passes its timeout (with its children), and a timed-out beforeTool hook refuses', async () => {
    const root = await tempWorkspaceRoot();
    let seen = '';
    const model = mockModel([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }] },
      (options) => {
        seen = promptText(options);
        return { text: 'ok' };
      },
    ]);
    const started = Date.now();
    const { events } = await runWithHarness({
      model,
      workspaceRoot: root,
      safety: withHooks({
        beforeTool: [{ command: '(sleep 5; touch late-child) & sleep 5; touch late', timeoutMs: 300 }],
      }),
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(hookEvents(events)[0]).toMatchObject({ hook: 'beforeTool', exit_code: null, timed_out: true });
    expect(seen).toContain('did not finish within 300 ms');
    expect(existsSync(path.join(root, 'a.txt'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(existsSync(path.join(root, 'late'))).toBe(false);
    expect(existsSync(path.join(root, 'late-child'))).toBe(false);
  }, 15_000);

  it('runs runStart, runEnd and waitingForInput hooks with the event on stdin', async () => {
    const root = await tempWorkspaceRoot();
    const model = mockModel([
      { toolCalls: [{ name: 'request_input', args: { question: 'Which colour?' } }] },
      { text: 'Blue it is.' },
    ]);
    const { result } = await runWithHarness({
      model,
      workspaceRoot: root,
      goal: 'paint it',
      inputProvider: async () => {
        // The waiting hook runs beside the request (the run does not wait for it): answer once it
        // has written the whole event (the shell makes the file before cat writes to it).
        await expect
          .poll(() => readFile(path.join(root, 'waiting.json'), 'utf8').then(JSON.parse, () => undefined), {
            timeout: 30_000,
            interval: 50,
          })
          .toMatchObject({ hook: 'waitingForInput' });
        return 'blue';
      },
      safety: withHooks({
        runStart: [{ command: 'cat > start.json' }],
        waitingForInput: [{ command: 'cat > waiting.json' }],
        runEnd: [{ command: 'cat > end.json' }],
      }),
    });
    expect(result.status).toBe('completed');
    expect(JSON.parse(await readFile(path.join(root, 'start.json'), 'utf8'))).toMatchObject({
      hook: 'runStart',
      goal: 'paint it',
    });
    expect(JSON.parse(await readFile(path.join(root, 'waiting.json'), 'utf8'))).toMatchObject({
      hook: 'waitingForInput',
      kind: 'input',
      question: 'Which colour?',
    });
    expect(JSON.parse(await readFile(path.join(root, 'end.json'), 'utf8'))).toMatchObject({
      hook: 'runEnd',
      status: 'completed',
      final_answer: 'Blue it is.',
    });
  });
});

describe('where hooks may be declared', () => {
  async function configs(project: unknown, user: unknown) {
    const root = await tempWorkspaceRoot();
    const home = await tempWorkspaceRoot();
    await mkdir(path.join(root, '.taskweave'), { recursive: true });
    await mkdir(path.join(home, 'taskweave'), { recursive: true });
    if (project) await writeFile(path.join(root, '.taskweave', 'config.json'), JSON.stringify(project));
    if (user) await writeFile(path.join(home, 'taskweave', 'config.json'), JSON.stringify(user));
    return loadConfigFile({ cwd: root, env: { HOME: home, XDG_CONFIG_HOME: home } });
  }

  it('refuses a workspace config that declares hooks, naming the file', async () => {
    await expect(configs({ hooks: { beforeTool: [{ command: 'true' }] } }, undefined)).rejects.toThrow(
      /The workspace config .*\.taskweave\/config\.json sets "hooks"/,
    );
  });

  it("takes hooks from the user's own config", async () => {
    const loaded = await configs({ maxSteps: 3 }, { hooks: { runEnd: [{ command: 'notify-send done' }] } });
    expect(loaded.config.hooks).toEqual({ runEnd: [{ command: 'notify-send done' }] });
  });

  it('says what is wrong with a bad hook (an unknown moment, a match on a run hook)', async () => {
    await expect(configs(undefined, { hooks: { afterEdit: [{ command: 'x' }] } })).rejects.toThrow(
      /afterEdit/,
    );
    await expect(configs(undefined, { hooks: { runEnd: [{ match: 'x', command: 'x' }] } })).rejects.toThrow(
      /match/,
    );
  });
});
