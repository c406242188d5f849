import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInstructions, MAX_INSTRUCTIONS_CHARS } from '../../src/prompts/project-instructions.js';
import { buildSystemPrompt, systemPrompts } from '../../src/prompts/system-prompt.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('AGENTS.md instructions', () => {
  it('reads the user file, then every folder from the repository root down to the workspace', async () => {
    const root = await tempWorkspaceRoot('taskweave-agents-');
    const home = path.join(root, 'home');
    const repo = path.join(root, 'repo');
    const workspace = path.join(repo, 'packages', 'app');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await write(path.join(root, 'AGENTS.md'), 'Outside the repository: never read.');
    await write(path.join(home, '.config', 'taskweave', 'AGENTS.md'), 'Be brief.');
    await write(path.join(repo, 'AGENTS.md'), 'Run npm test before finishing.');
    await mkdir(path.join(repo, 'packages'), { recursive: true });
    await write(path.join(workspace, 'AGENTS.md'), 'Use tabs in this package.');
    const env = { HOME: home };
    const found = findInstructions({ workspace, env });
    expect(found.map((file) => file.label)).toEqual([
      '~/.config/taskweave/AGENTS.md',
      '../../AGENTS.md',
      'AGENTS.md',
    ]);
    const prompt = buildSystemPrompt({ workspace, mode: 'simple', env });
    const order = ['Be brief.', 'Run npm test before finishing.', 'Use tabs in this package.'].map((text) =>
      prompt.indexOf(text),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).not.toContain('Outside the repository');
  });

  it('outside a repository only the workspace’s own file counts; a huge file is cut; no file, no section', async () => {
    const root = await tempWorkspaceRoot('taskweave-agents-');
    const workspace = path.join(root, 'work');
    const env = { HOME: path.join(root, 'home') };
    await mkdir(workspace, { recursive: true });
    expect(buildSystemPrompt({ workspace, mode: 'simple', env })).not.toContain('# Project instructions');
    await write(path.join(root, 'AGENTS.md'), 'A stray parent file.');
    await write(path.join(workspace, 'AGENTS.md'), `Start. ${'x'.repeat(MAX_INSTRUCTIONS_CHARS * 2)}`);
    const [only, ...rest] = findInstructions({ workspace, env });
    expect(rest).toEqual([]);
    expect(only?.label).toBe('AGENTS.md');
    expect(only?.content.length).toBeLessThan(MAX_INSTRUCTIONS_CHARS + 100);
    expect(only?.content).toContain('[… cut: the file has');
  });
});

describe('systemPrompts (one run)', () => {
  it('reads AGENTS.md once: a file edited during the run counts from the next run, in every mode', async () => {
    const root = await tempWorkspaceRoot('taskweave-agents-');
    const workspace = path.join(root, 'work');
    const env = { HOME: path.join(root, 'home') };
    await write(path.join(workspace, 'AGENTS.md'), 'Use tabs.');
    const run = systemPrompts({ workspace, env });
    expect(run('planning')).toContain('Use tabs.');
    await write(path.join(workspace, 'AGENTS.md'), 'Use spaces.');
    // A plan task of the same run: what was read when the run started.
    expect(run('task')).toContain('Use tabs.');
    expect(run('task')).not.toContain('Use spaces.');
    expect(run('task')).toBe(
      buildSystemPrompt({ workspace, mode: 'task', env }).replace('Use spaces.', 'Use tabs.'),
    );
    // The next run reads the file again.
    expect(systemPrompts({ workspace, env })('task')).toContain('Use spaces.');
  });
});
