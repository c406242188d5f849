import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

describe('taskweave run with AGENTS.md', () => {
  it('puts the instructions into the prompt and names the files under the header', async () => {
    const root = await tempWorkspaceRoot('taskweave-agents-e2e-');
    const workspace = path.join(root, 'repo', 'app');
    await mkdir(path.join(root, 'repo', '.git'), { recursive: true });
    await mkdir(workspace, { recursive: true });
    await writeFile(path.join(root, 'repo', 'AGENTS.md'), 'Always answer in French.\n');
    await mkdir(path.join(root, 'xdg', 'taskweave'), { recursive: true });
    await writeFile(path.join(root, 'xdg', 'taskweave', 'AGENTS.md'), 'Sign every answer with a fox.\n');
    // The one turn matches only a prompt holding the repository's instruction (else: script exhausted).
    const script = await writeScript(root, {
      turns: [{ when: 'Always answer in French.', text: 'Bonjour 🦊' }],
    });
    const env = { HOME: root, XDG_CONFIG_HOME: path.join(root, 'xdg') };
    const run = await runCli(['run', '--model', `script:${script}`, '--cwd', workspace, 'greet'], { env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe('instructions: ~/xdg/taskweave/AGENTS.md, ../AGENTS.md');
    expect(run.stdout).toContain('Bonjour 🦊');
  });
});
