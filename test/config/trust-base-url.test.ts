import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustBaseUrl } from '../../src/config/trust-base-url.js';
import { ModelConfigError } from '../../src/model/types.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const URL_A = 'http://127.0.0.1:8000/v1';
const URL_B = 'https://llm.example.com/v1';

describe('trustBaseUrl', () => {
  it('creates the user config and its folder when missing', async () => {
    const userFile = path.join(await tempWorkspaceRoot('taskweave-trust-'), 'a', 'taskweave', 'config.json');
    await trustBaseUrl({ userFile, url: URL_A });
    expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({ trustedBaseUrls: [URL_A] });
  });

  it('adds to the list once, keeps the other keys, and leaves no temporary file', async () => {
    const folder = await tempWorkspaceRoot('taskweave-trust-');
    const userFile = path.join(folder, 'config.json');
    await writeFile(userFile, JSON.stringify({ model: 'openai:gpt-4.1', trustedBaseUrls: [URL_B] }));
    await trustBaseUrl({ userFile, url: URL_A });
    await trustBaseUrl({ userFile, url: URL_A });
    expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({
      model: 'openai:gpt-4.1',
      trustedBaseUrls: [URL_B, URL_A],
    });
    expect(await readdir(folder)).toEqual(['config.json']);
  });

  it('writes through a symbolic link, which stays a link', async () => {
    const folder = await tempWorkspaceRoot('taskweave-trust-');
    const real = path.join(folder, 'dotfiles', 'taskweave.json');
    await mkdir(path.dirname(real), { recursive: true });
    await writeFile(real, JSON.stringify({ maxSteps: 3 }));
    const userFile = path.join(folder, 'config.json');
    await symlink(real, userFile);
    await trustBaseUrl({ userFile, url: URL_A });
    expect((await lstat(userFile)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8'))).toEqual({ maxSteps: 3, trustedBaseUrls: [URL_A] });
  });

  it('a user config that is not valid JSON is an error and is left as it was', async () => {
    const userFile = path.join(await tempWorkspaceRoot('taskweave-trust-'), 'config.json');
    await writeFile(userFile, '{ "maxSteps": 3,');
    await expect(trustBaseUrl({ userFile, url: URL_A })).rejects.toThrow(ModelConfigError);
    expect(await readFile(userFile, 'utf8')).toBe('{ "maxSteps": 3,');
  });
});
