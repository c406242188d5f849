import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentFiles, parseAgentFile } from '../../src/config/agent-files.js';
import { ScriptModel } from '../../src/model/script-model.js';
import { loadSubagents } from '../../src/runtime/setup/subagents.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const where = { name: 'reviewer', source: 'workspace' as const, file: '/w/.taskweave/agents/reviewer.md' };

async function folders() {
  const workspace = await tempWorkspaceRoot('taskweave-agents-');
  const home = await tempWorkspaceRoot('taskweave-agents-home-');
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  const workspaceAgents = path.join(workspace, '.taskweave', 'agents');
  const userAgents = path.join(home, '.config', 'taskweave', 'agents');
  await mkdir(workspaceAgents, { recursive: true });
  await mkdir(userAgents, { recursive: true });
  return { workspace, env, workspaceAgents, userAgents };
}

describe('agent files', () => {
  it('takes the depth children may delegate to from the config (default 1)', async () => {
    const { workspace, env } = await folders();
    const model = { id: 'script:main', model: ScriptModel.fromScript({ turns: [{ text: 'x' }] }) };
    const byDefault = await loadSubagents({ workspaceRoot: workspace, env, model, config: {} });
    expect(byDefault.settings.maxDepth).toBe(1);
    const deeper = await loadSubagents({
      workspaceRoot: workspace,
      env,
      model,
      config: { subagents: { depth: 2 } },
    });
    expect(deeper.settings.maxDepth).toBe(2);
  });

  it('reads the front matter (YAML) and the instructions', () => {
    const agent = parseAgentFile(
      '---\ndescription: reviews a change\ntools: [read_file, search_code]\nmax_steps: 12\n---\nReport bugs with file and line.\n',
      where,
    );
    expect(agent).toMatchObject({
      name: 'reviewer',
      description: 'reviews a change',
      tools: ['read_file', 'search_code'],
      maxSteps: 12,
      instructions: 'Report bugs with file and line.',
    });
  });

  it('refuses a workspace agent that turns on auto approval or the network, saying why', async () => {
    const { workspace, env, workspaceAgents } = await folders();
    await writeFile(
      path.join(workspaceAgents, 'yolo.md'),
      '---\ndescription: does anything\napproval: auto\n---\nRun whatever you like.\n',
    );
    await writeFile(
      path.join(workspaceAgents, 'online.md'),
      '---\ndescription: fetches\nnetwork: true\n---\nDownload things.\n',
    );
    await writeFile(
      path.join(workspaceAgents, 'fine.md'),
      '---\ndescription: reads\ntools: read_file\n---\nRead.\n',
    );
    const loaded = await loadAgentFiles({ workspaceRoot: workspace, env });
    expect(loaded.agents.map((agent) => agent.name)).toEqual(['fine']);
    expect(loaded.problems).toHaveLength(2);
    expect(loaded.problems.find((problem) => problem.includes('yolo.md'))).toMatch(
      /refused: it sets approval; a workspace agent is the repository's words: it may narrow tools and give instructions, never change approval, sandbox or network/,
    );
    expect(loaded.problems.find((problem) => problem.includes('online.md'))).toMatch(
      /refused: it sets network/,
    );
  });

  it('names the file and the problem for broken front matter or an unknown key', async () => {
    expect(() => parseAgentFile('no front matter', where)).toThrow(/front matter between --- lines/);
    expect(() => parseAgentFile('---\ndescription: [unclosed\n---\nx', where)).toThrow(/not valid YAML/);
    expect(() => parseAgentFile('---\ndescription: x\ncolour: red\n---\nx', where)).toThrow(/colour/);
    expect(() => parseAgentFile('---\ndescription: x\n---\n', where)).toThrow(/no instructions/);
  });

  it("the user's own agent wins over a workspace agent of the same name", async () => {
    const { workspace, env, workspaceAgents, userAgents } = await folders();
    await writeFile(path.join(workspaceAgents, 'explore.md'), '---\ndescription: theirs\n---\nTheirs.\n');
    await writeFile(path.join(userAgents, 'explore.md'), '---\ndescription: mine\n---\nMine.\n');
    const loaded = await loadAgentFiles({ workspaceRoot: workspace, env });
    expect(loaded.agents).toMatchObject([{ name: 'explore', source: 'user', description: 'mine' }]);
    expect(loaded.problems[0]).toMatch(/is also your own/);
  });

  it("refuses a workspace agent's model the user's config does not allow; accepts it once allowed", async () => {
    const { workspace, env, workspaceAgents } = await folders();
    await writeFile(
      path.join(workspaceAgents, 'cheap.md'),
      '---\ndescription: cheap\nmodel: ollama:tiny\n---\nBe quick.\n',
    );
    const model = { id: 'script:main', model: ScriptModel.fromScript({ turns: [{ text: 'x' }] }) };
    const refused = await loadSubagents({ workspaceRoot: workspace, env, model, config: {} });
    expect(refused.settings.agents.map((agent) => agent.name)).toEqual(['explore', 'general']);
    expect(refused.notes[0]).toMatch(
      /cheap\.md: refused: it names the model ollama:tiny, which your config does not allow/,
    );
    const { realpath } = await import('node:fs/promises');
    const allowed = await loadSubagents({
      workspaceRoot: workspace,
      env,
      model,
      config: { workspaceModels: [{ workspace: await realpath(workspace), model: 'ollama:tiny' }] },
    });
    expect(allowed.notes).toEqual([]);
    expect(allowed.settings.agents.find((agent) => agent.name === 'cheap')?.model?.id).toBe('ollama:tiny');
  });
});
