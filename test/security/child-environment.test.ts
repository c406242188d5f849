import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runChecker } from '../../src/eval/checker.js';
import type { Scenario } from '../../src/eval/scenario.js';
import { git } from '../../src/work/git.js';

/*
 * Issue 39 (item 2, followed up): the list of taskweave's secrets held for commands and hooks,
 * but not for what git runs (the user's clean filters, credential helpers, an alias) nor for an
 * eval's checker, whose own filter dropped only names with API_KEY, TOKEN or SECRET: the store's
 * URL and PGPASSWORD reached both.
 */
const PASSWORD = 'store-pass-child-91c3';
const SECRETS: Record<string, string> = {
  TASKWEAVE_STORE: `postgres://taskweave:${PASSWORD}@127.0.0.1:5432/queue`,
  PGPASSWORD: PASSWORD,
  OPENAI_API_KEY: 'sk-child-not-a-real-key',
  GITHUB_TOKEN: 'ghp-child-not-a-real-token',
};

describe("what taskweave's children see holds none of its secrets", () => {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const [name, value] of Object.entries(SECRETS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterEach(() => {
    for (const name of Object.keys(SECRETS)) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('a program git runs (here an alias) gets no store URL, PG* variable or provider key', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-git-env-'));
    const printed = (await git(['-c', 'alias.showenv=!env', 'showenv'], { cwd: folder })).toString('utf8');
    expect(printed).toContain('PATH=');
    for (const name of ['TASKWEAVE_STORE', 'PGPASSWORD', 'OPENAI_API_KEY'])
      expect(printed).not.toContain(`${name}=`);
    expect(printed).not.toContain(PASSWORD);
  });

  it("an eval's checker gets neither taskweave's secrets nor other credentials", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-checker-env-'));
    const checker = path.join(folder, 'check.mjs');
    await writeFile(
      checker,
      'console.log(Object.keys(process.env).join(" ")); console.log(JSON.stringify(process.env));\n',
    );
    const scenario = { name: 'env', dir: folder, startDir: folder, checker } as Scenario;
    const result = await runChecker(scenario, folder);
    expect(result.passed).toBe(true);
    expect(result.reason).toContain('PATH');
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(result.reason).not.toContain(name);
      expect(result.reason).not.toContain(value);
    }
  });
});
