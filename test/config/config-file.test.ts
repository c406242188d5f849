import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { ModelConfigError } from '../../src/model/types.js';

describe('loadConfigFile', () => {
  let root: string;
  let cwd: string;
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'taskweave-config-'));
    cwd = path.join(root, 'project');
    home = path.join(root, 'home');
    await mkdir(cwd, { recursive: true });
    await mkdir(home, { recursive: true });
    env = { HOME: home };
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function write(file: string, content: unknown): Promise<string> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  const projectFile = () => path.join(cwd, '.taskweave', 'config.json');

  it('takes language servers from the user file, and refuses them in a workspace file', async () => {
    const servers = { go: { command: 'gopls', extensions: ['.go'], rootMarkers: ['go.mod'] } };
    const user = await write(path.join(home, '.config', 'taskweave', 'config.json'), { lsp: { servers } });
    expect((await loadConfigFile({ cwd, env })).config.lsp).toEqual({ servers });
    await write(projectFile(), { lsp: { waitMs: 2000 } });
    expect((await loadConfigFile({ cwd, env })).config.lsp).toEqual({ waitMs: 2000 });
    await write(projectFile(), { lsp: false });
    expect((await loadConfigFile({ cwd, env })).config.lsp).toBe(false);
    const project = await write(projectFile(), { lsp: { servers } });
    await expect(loadConfigFile({ cwd, env })).rejects.toThrow(
      `The workspace config ${project} sets "lsp.servers"`,
    );
    expect(user).toContain('config.json');
  });

  it('takes subagents: false or a depth of 1 to 3, and refuses another depth naming the key', async () => {
    await write(projectFile(), { subagents: false });
    expect((await loadConfigFile({ cwd, env })).config.subagents).toBe(false);
    await write(projectFile(), { subagents: { depth: 2 } });
    expect((await loadConfigFile({ cwd, env })).config.subagents).toEqual({ depth: 2 });
    await write(projectFile(), { subagents: { depth: 9 } });
    await expect(loadConfigFile({ cwd, env })).rejects.toThrow(/subagents/);
  });

  it('gives an empty config when no file exists', async () => {
    expect(await loadConfigFile({ cwd, env })).toEqual({ config: {}, sources: {}, paths: [] });
  });

  it('merges key by key: the project file over the user file, each key naming its file', async () => {
    const project = await write(projectFile(), { maxSteps: 20 });
    const user = await write(path.join(home, '.config', 'taskweave', 'config.json'), {
      model: 'openai:gpt-4.1',
      maxSteps: 5,
    });
    expect(await loadConfigFile({ cwd, env })).toEqual({
      config: { model: 'openai:gpt-4.1', maxSteps: 20 },
      sources: { model: user, maxSteps: project },
      paths: [project, user],
    });
  });

  it('reports an invalid user file, naming it, even when a project file exists', async () => {
    await write(projectFile(), { maxSteps: 20 });
    const user = await write(path.join(home, '.config', 'taskweave', 'config.json'), { modle: 'typo' });
    await expect(loadConfigFile({ cwd, env })).rejects.toThrow(user);
  });

  it('falls back to ~/.config/taskweave/config.json, with HOME from the given env', async () => {
    const file = await write(path.join(home, '.config', 'taskweave', 'config.json'), {
      baseUrl: 'http://127.0.0.1:8000/v1',
    });
    expect(await loadConfigFile({ cwd, env })).toEqual({
      config: { baseUrl: 'http://127.0.0.1:8000/v1' },
      sources: { baseUrl: file },
      paths: [file],
    });
  });

  it('uses XDG_CONFIG_HOME instead of ~/.config when set', async () => {
    await write(path.join(home, '.config', 'taskweave', 'config.json'), { model: 'from-home:x' });
    const xdg = path.join(root, 'xdg');
    const file = await write(path.join(xdg, 'taskweave', 'config.json'), { model: 'from-xdg:x' });
    expect(await loadConfigFile({ cwd, env: { ...env, XDG_CONFIG_HOME: xdg } })).toEqual({
      config: { model: 'from-xdg:x' },
      sources: { model: file },
      paths: [file],
    });
  });

  it.each([
    ['invalid JSON', '{ "model": ', /is not valid JSON/],
    ['an unknown key', { model: 'a:b', modle: 'typo' }, /Unrecognized key.*modle/],
    ['maxSteps that is not a positive integer', { maxSteps: 0 }, /maxSteps/],
    ['maxSteps as a string', { maxSteps: '10' }, /maxSteps/],
    ['a baseUrl that is not a URL', { baseUrl: 'localhost' }, /baseUrl/],
    ['a list instead of an object', [], /expected object/],
  ])('reports %s, naming the file', async (_label, content, expected) => {
    const file = await write(projectFile(), content);
    const error = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(expected);
  });

  it('an unknown key near a known one asks "did you mean", at the level where it is', async () => {
    await write(projectFile(), { maxStep: 3, budget: { sesion: 2 } });
    const error = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain(
      '(top level): Unrecognized key: "maxStep" (did you mean `maxSteps`?)',
    );
    expect((error as Error).message).toContain(
      'budget: Unrecognized key: "sesion" (did you mean `session`?)',
    );
  });

  it('an unknown key near no known one gets no suggestion', async () => {
    await write(projectFile(), { colourScheme: 'dark' });
    const error = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toMatch(/Unrecognized key: "colourScheme"$/);
  });

  it('invalid JSON is reported at its line and column, not its character position', async () => {
    await write(projectFile(), '{\n  "maxSteps": 3,\n  oops: 1\n}\n');
    const error = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toMatch(/is not valid JSON: .* at line 3, column 3$/);
    expect((error as Error).message).not.toContain('position');
  });

  it('refusing hooks in a workspace config suggests only what applies to hooks: the user config, no flag', async () => {
    await write(projectFile(), { hooks: { runStart: [{ command: 'true' }] } });
    const error = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain(
      'sets "hooks", which would loosen what taskweave asks and confines; a workspace config (which a cloned repository can bring along) may only tighten it. Put this key in your own config (~/.config/taskweave/config.json).',
    );
    await write(projectFile(), { hooks: { runStart: [{ command: 'true' }] }, approval: 'auto' });
    const both = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect((both as Error).message).toMatch(
      /Put these keys in your own config \(.*\), or pass --approval auto for one run\.$/,
    );
  });

  it('takes webFetch.privateHosts from the user config only: a workspace config naming a host is refused', async () => {
    await write(projectFile(), { webFetch: { privateHosts: ['127.0.0.1'] } });
    const error = await loadConfigFile({ cwd, env }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toContain('sets "webFetch", which would loosen what taskweave asks');
  });

  it('reports a config path that cannot be read', async () => {
    await mkdir(projectFile(), { recursive: true });
    await expect(loadConfigFile({ cwd, env })).rejects.toThrow(/Cannot read the config file/);
  });
});
