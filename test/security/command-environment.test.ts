import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHook } from '../../src/agent/hooks/run-hook.js';
import type { EventPayload } from '../../src/events/registry.js';
import { BackgroundCommands } from '../../src/tools/background/background-commands.js';
import { readBackgroundOutputTool } from '../../src/tools/builtin/read-background-output.js';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import {
  isWithheldVariable,
  PASSED_VARIABLES,
  WITHHELD_VARIABLES,
} from '../../src/util/command-environment.js';
import { useToolTestBed } from '../helpers/tool-context.js';

/*
 * Issue 39, item 2: TASKWEAVE_STORE and PGPASSWORD stayed in the environment of commands: a plain
 * `env` put the store's password in the tool result, the stored events and the export.
 */
const STORE_PASSWORD = 'store-pass-4e1b9c';
const SECRETS: Record<string, string> = {
  TASKWEAVE_STORE: `postgres://taskweave:${STORE_PASSWORD}@127.0.0.1:5432/queue`,
  TASKWEAVE_TEST_POSTGRES: `postgres://tester:${STORE_PASSWORD}@127.0.0.1:5432/test`,
  PGPASSWORD: STORE_PASSWORD,
  PGUSER: 'pg-user-8c1f',
  PGSERVICEFILE: '/home/user/.pg_service.conf',
  OPENAI_API_KEY: 'sk-test-not-a-real-key-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-test-not-a-real-key-0123456789',
  GOOGLE_GENERATIVE_AI_API_KEY: 'google-test-not-a-real-key-0123456789',
};

const found = await probeSandbox();
const sandbox: CommandSandbox | undefined = found.available
  ? { kind: 'bwrap', bwrap: found.bwrap, mode: 'workspace-write', network: false }
  : undefined;

/** The names of the variables a printed `env` lists. */
function namesIn(printed: string): string[] {
  return printed
    .split('\n')
    .map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

function expectNoSecret(text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(text, name).not.toContain(`${name}=`);
    expect(text, name).not.toContain(value);
  }
  expect(text).not.toContain(STORE_PASSWORD);
}

describe("a command's environment holds none of taskweave's secrets (issue 39, item 2)", () => {
  const bed = useToolTestBed();
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const [name, value] of Object.entries(SECRETS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('unsandboxed: `env` shows none of them', async () => {
    const result = await runCommandTool.run({ command: 'env' }, bed().ctx);
    expect(result.isError, result.output).toBe(false);
    expect(namesIn(result.output)).toContain('PATH');
    expectNoSecret(result.output);
    expect(namesIn(result.output).filter(isWithheldVariable)).toEqual([]);
  });

  it.runIf(sandbox !== undefined)('in bubblewrap: `env` shows none of them', async () => {
    const result = await runCommandTool.run(
      { command: 'env' },
      { ...bed().ctx, sandbox: sandbox ?? { kind: 'none' } },
    );
    expect(result.isError, result.output).toBe(false);
    expect(namesIn(result.output)).toContain('PATH');
    expectNoSecret(result.output);
  });

  it('in the background: `env` shows none of them, and its lines in events are redacted', async () => {
    const events: EventPayload[] = [];
    const background = new BackgroundCommands({ max: 2, emit: (_runId, payload) => events.push(payload) });
    const ctx = { ...bed().ctx, background, runId: 'run-1' };
    try {
      const started = await runCommandTool.run(
        // The password is made by the command, so that it is in its output only (not its command line).
        { command: `env; echo "postgres://u:$(printf 'bg-sec%s' ret-77)@h/db"`, background: true },
        ctx,
      );
      expect(started.isError, started.output).toBe(false);
      await background.get('bg1')?.finished;
      await background.close();
      const read = await readBackgroundOutputTool.run({ id: 'bg1' }, ctx);
      expect(namesIn(read.output)).toContain('PATH');
      expectNoSecret(read.output);
      expect(read.output).toContain('postgres://u:[redacted]@h/db');
      const stored = JSON.stringify(events);
      expect(stored).toContain('postgres://u:[redacted]@h/db');
      expect(stored).not.toContain('bg-secret-77');
      expect(JSON.stringify(background.takeEndNotices())).not.toContain('bg-secret-77');
    } finally {
      await background.close();
    }
  });

  it("a hook's environment holds none of them either", async () => {
    const outcome = await runHook({
      command: 'env >&2; exit 1',
      cwd: bed().root,
      input: {},
      timeoutMs: 10_000,
    });
    expect(outcome.stderr).toContain('PATH=');
    expectNoSecret(outcome.stderr);
  });
});

describe('credential-bearing URLs in tool results (issue 39, item 2)', () => {
  const bed = useToolTestBed();

  it('`echo postgres://u:secret@h/db` comes back redacted, in output and display', async () => {
    const result = await runCommandTool.run(
      { command: 'echo postgres://u:secret@h/db; echo "redis://:p@ss@cache:6379/0" >&2; exit 3' },
      bed().ctx,
    );
    expect(result.output).toContain('postgres://u:[redacted]@h/db');
    expect(result.output).toContain('redis://:[redacted]@cache:6379/0');
    expect(result.output).not.toContain('secret');
    expect(result.output).not.toContain('p@ss');
    expect(`${result.display}`).not.toContain('secret');
  });

  it('a file holding one is read back redacted, and a URL without a password is left as it is', async () => {
    await bed().write(
      'conf.txt',
      'url = "https://deploy:hunter2-token@git.example.com/repo.git"\nssh://git@github.com/a/b\n',
    );
    const result = await runCommandTool.run({ command: 'cat conf.txt' }, bed().ctx);
    expect(result.output).toContain('https://deploy:[redacted]@git.example.com/repo.git');
    expect(result.output).not.toContain('hunter2');
    expect(result.output).toContain('ssh://git@github.com/a/b');
  });
});

/** Every source file of taskweave (not the tests). */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The environment variables the source reads: `env.NAME` (process.env and a given env),
 * `env['NAME']`, a constant `…_ENV = 'NAME'` used as `env[…]`, `envValue(env, 'NAME')`,
 * `requireKey(…, env, ['NAME'])`, and lists `…_VARIABLES = ['NAME', …]`.
 */
function variablesReadBySource(): Map<string, string> {
  const root = path.join(import.meta.dirname, '..', '..', 'src');
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[\s*'([A-Z][A-Z0-9_]*)'\s*\]/g,
    /\b[A-Z_]+_ENV\s*=\s*'([A-Z][A-Z0-9_]*)'/g,
    /\benvValue\(\s*\w+,\s*'([A-Z][A-Z0-9_]*)'/g,
  ];
  const lists = [/\brequireKey\([^)]*\[([^\]]*)\]/g, /\b[A-Z_]+_VARIABLES\b[^=\n]*=\s*\[([^\]]*)\]/g];
  const read = new Map<string, string>();
  for (const file of sourceFiles(root)) {
    if (file.endsWith(`${path.sep}util${path.sep}command-environment.ts`)) continue;
    const text = readFileSync(file, 'utf8');
    const relative = path.relative(root, file);
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) read.set(match[1] ?? '', relative);
    for (const pattern of lists)
      for (const match of text.matchAll(pattern))
        for (const name of (match[1] ?? '').matchAll(/'([A-Z][A-Z0-9_]*)'/g))
          read.set(name[1] ?? '', relative);
  }
  return read;
}

describe('the one list of what a command gets (issue 39, item 2)', () => {
  it('has every variable the source reads either withheld or passed with a reason', () => {
    const read = variablesReadBySource();
    // The grep finds what it must: a store URL, a provider key, a setting, a sandbox variable.
    for (const name of [
      'TASKWEAVE_STORE',
      'OPENAI_API_KEY',
      'GEMINI_API_KEY',
      'TASKWEAVE_LEASE_MS',
      'SSH_AUTH_SOCK',
    ])
      expect([...read.keys()]).toContain(name);
    const undecided = [...read].filter(
      ([name]) => !isWithheldVariable(name) && PASSED_VARIABLES[name] === undefined,
    );
    expect(undecided.map(([name, file]) => `${name} (${file})`)).toEqual([]);
    const both = Object.keys(PASSED_VARIABLES).filter(isWithheldVariable);
    expect(both).toEqual([]);
    expect(WITHHELD_VARIABLES).toEqual(expect.arrayContaining(['TASKWEAVE_STORE', 'OPENAI_API_KEY']));
    expect(isWithheldVariable('PGPASSWORD')).toBe(true);
  });
});
