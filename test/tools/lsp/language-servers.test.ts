import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeNavigationTool } from '../../../src/tools/builtin/code-navigation.js';
import { editFileTool } from '../../../src/tools/builtin/edit-file.js';
import { readFileTool } from '../../../src/tools/builtin/read-file.js';
import { writeFileTool } from '../../../src/tools/builtin/write-file.js';
import { FileTracker } from '../../../src/tools/file-tracker.js';
import { LanguageServers } from '../../../src/tools/lsp/index.js';
import { coreTools, ToolRegistry } from '../../../src/tools/registry.js';
import type { CommandSandbox } from '../../../src/tools/sandbox/index.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { Workspace } from '../../../src/tools/workspace/workspace.js';
import { createToolTestBed, type ToolTestBed } from '../../helpers/tool-context.js';

// The real servers, in bubblewrap as a run starts them. A cold TypeScript server loads its
// project in seconds on a busy machine: these tests wait long; the bounded wait has its own test.
const PATIENT_WAIT_MS = 90_000;
const SLOW = 240_000;
const sandbox: CommandSandbox = existsSync('/usr/bin/bwrap')
  ? { kind: 'bwrap', bwrap: '/usr/bin/bwrap', mode: 'workspace-write', network: false }
  : { kind: 'none' };

const MONEY = [
  'export function formatPrice(cents: number): string {',
  '  return `$${(cents / 100).toFixed(2)}`;',
  '}',
  '',
  'export const broken: number = "already broken";',
  '',
].join('\n');
const CART = [
  "import { formatPrice } from './money.js';",
  '',
  'export function total(prices: number[]): string {',
  '  return formatPrice(prices.reduce((sum, price) => sum + price, 0));',
  '}',
  '',
].join('\n');
const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true },
  include: ['src'],
});

function withServers(bed: ToolTestBed, servers: LanguageServers): ToolContext {
  bed.ctx.sandbox = sandbox;
  bed.ctx.languageServers = servers;
  return bed.ctx;
}

async function readThenEdit(ctx: ToolContext, file: string, find: string, replace: string) {
  expect((await readFileTool.run({ path: file }, ctx)).isError).toBe(false);
  return editFileTool.run({ path: file, edits: [{ find, replace }] }, ctx);
}

describe('diagnostics after edits from the real typescript-language-server', () => {
  let bed: ToolTestBed;
  let servers: LanguageServers;
  beforeAll(async () => {
    bed = await createToolTestBed();
    await bed.write('tsconfig.json', TSCONFIG);
    await bed.write('src/money.ts', MONEY);
    await bed.write('src/cart.ts', CART);
    servers = new LanguageServers({ waitMs: PATIENT_WAIT_MS }, process.env);
  });
  afterAll(async () => {
    await servers.close();
    await bed.cleanup();
  });

  it('reports a type error the edit introduced, and not the one already there', {
    timeout: SLOW,
  }, async () => {
    const ctx = withServers(bed, servers);
    const result = await readThenEdit(ctx, 'src/money.ts', 'toFixed(2)}`;', 'toFixed(2)}`.length;');
    expect(result.isError).toBe(false);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ path: 'src/money.ts', line: 2, severity: 'error', code: 'TS2322' }),
    ]);
    expect(result.output).toContain(
      'The language server reports 1 new problem after this change (1 error); fix them:',
    );
    expect(result.output).toContain(
      "src/money.ts:2:3 error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(result.output).not.toContain('already broken');
    expect(result.display).toBe('1 edit, 1 new problem');
  });

  it('reports the callers a changed signature breaks in another file', { timeout: SLOW }, async () => {
    const ctx = withServers(bed, servers);
    const result = await readThenEdit(
      ctx,
      'src/money.ts',
      'export function formatPrice(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`.length;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text
      'export function formatPrice(cents: number, currency: string): string {\n  return `${currency}${(cents / 100).toFixed(2)}`;',
    );
    // The error the last edit introduced is gone; the caller in cart.ts is new.
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ path: 'src/cart.ts', line: 4, severity: 'error', code: 'TS2554' }),
    ]);
    expect(result.output).toContain('src/cart.ts:4:10 error TS2554: Expected 2 arguments, but got 1.');
  });

  it('reports nothing once the errors are fixed', { timeout: SLOW }, async () => {
    const ctx = withServers(bed, servers);
    const result = await readThenEdit(ctx, 'src/cart.ts', '0));', "0), 'EUR');");
    expect(result.isError).toBe(false);
    expect(result.diagnostics).toBeUndefined();
    expect(result.output).not.toContain('language server');
    expect(servers.list()).toEqual([expect.objectContaining({ language: 'typescript', root: bed.root })]);
  });

  it('returns soon after an edit that leaves a clean file clean (the server says nothing new)', {
    timeout: SLOW,
  }, async () => {
    const ctx = withServers(bed, servers);
    const result = await readThenEdit(
      ctx,
      'src/cart.ts',
      '(sum, price) => sum + price',
      '(sum, each) => sum + each',
    );
    expect(result.diagnostics).toBeUndefined();
    expect(result.output).not.toContain('language server');
    // Far less than the wait (PATIENT_WAIT_MS): the server published the file anew.
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('answers code_navigation: definition, references, hover and symbols', { timeout: SLOW }, async () => {
    const ctx = withServers(bed, servers);
    const ask = (args: object) => codeNavigationTool.run(args, ctx);
    const definition = await ask({
      operation: 'definition',
      path: 'src/cart.ts',
      line: 4,
      symbol: 'formatPrice',
    });
    expect(definition.output).toBe(
      'src/money.ts:1:17: export function formatPrice(cents: number, currency: string): string {',
    );
    const references = await ask({
      operation: 'references',
      path: 'src/money.ts',
      line: 1,
      symbol: 'formatPrice',
    });
    expect(
      references.output
        .split('\n')
        .map((line) => line.split(': ')[0])
        .sort(),
    ).toEqual(['src/cart.ts:1:10', 'src/cart.ts:4:10', 'src/money.ts:1:17']);
    const hover = await ask({ operation: 'hover', path: 'src/cart.ts', line: 4, symbol: 'formatPrice' });
    expect(hover.output).toContain('formatPrice(cents: number, currency: string): string');
    const symbols = await ask({ operation: 'symbols', path: 'src/money.ts' });
    expect(symbols.output).toContain('1:17 function formatPrice');
    const missing = await ask({ operation: 'definition', path: 'src/cart.ts', line: 4, symbol: 'nowhere' });
    expect(missing).toMatchObject({ isError: true, output: 'src/cart.ts has no "nowhere" on line 4.' });
    // Offered to the model from the moment a server runs.
    expect(
      new ToolRegistry(coreTools).offered({ languageServers: servers }).map((tool) => tool.name),
    ).toContain('code_navigation');
    expect(new ToolRegistry(coreTools).offered({}).map((tool) => tool.name)).not.toContain('code_navigation');
  });

  it('restarts a killed server once, then turns it off for the run with a note', {
    timeout: SLOW,
  }, async () => {
    const ctx = withServers(bed, servers);
    const kill = () => {
      const [running] = servers.list();
      expect(running?.pid).toBeGreaterThan(0);
      process.kill(-(running?.pid ?? 0), 'SIGKILL');
    };
    kill();
    await waitFor(() => servers.list().length === 0);
    const restarted = await readThenEdit(ctx, 'src/money.ts', 'already broken', 'still broken');
    expect(restarted.output).toContain(
      '(The typescript language server crashed (killed by SIGKILL) and was started again.)',
    );
    const introduced = await readThenEdit(ctx, 'src/cart.ts', "'EUR');", "'EUR').length;");
    expect(introduced.diagnostics).toEqual([
      expect.objectContaining({ path: 'src/cart.ts', code: 'TS2322' }),
    ]);

    kill();
    await waitFor(() => servers.list().length === 0);
    const off = await readThenEdit(ctx, 'src/cart.ts', "'EUR').length;", "'EUR');");
    expect(off.output).toContain(
      '(No diagnostics: the typescript language server crashed again (killed by SIGKILL); diagnostics from it are off for the rest of the run.)',
    );
    const quiet = await readThenEdit(ctx, 'src/cart.ts', "'EUR');", "'USD');");
    expect(quiet.output).not.toContain('No diagnostics');
    expect(servers.list()).toEqual([]);
  });
});

describe('diagnostics from the real pyright', () => {
  it('reports the error a new file brings, in the write_file result', { timeout: SLOW }, async () => {
    const bed = await createToolTestBed();
    const servers = new LanguageServers({ waitMs: PATIENT_WAIT_MS }, process.env);
    try {
      const ctx = withServers(bed, servers);
      await bed.write('pyproject.toml', '[project]\nname = "demo"\n');
      await bed.write('shop/prices.py', 'def price(cents: int) -> str:\n    return f"{cents / 100:.2f}"\n');
      const result = await writeFileTool.run(
        { path: 'shop/order.py', content: 'from shop.prices import price\n\ntotal: int = price(250)\n' },
        ctx,
      );
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          path: 'shop/order.py',
          line: 3,
          severity: 'error',
          code: 'reportAssignmentType',
        }),
      ]);
      expect(servers.list()).toEqual([expect.objectContaining({ language: 'python' })]);
    } finally {
      await servers.close();
      await bed.cleanup();
    }
  });
});

describe('a language server that never answers', () => {
  it('leaves the edit waiting no longer than the configured time, and says so once', {
    timeout: SLOW,
  }, async () => {
    const bed = await createToolTestBed();
    const servers = new LanguageServers(
      {
        waitMs: 1500,
        servers: {
          mute: { command: process.execPath, args: ['-e', 'process.stdin.resume()'], extensions: ['.mute'] },
        },
      },
      process.env,
    );
    try {
      const ctx = withServers(bed, servers);
      await bed.write('notes.mute', 'one\n');
      const first = await readThenEdit(ctx, 'notes.mute', 'one', 'two');
      expect(first.isError).toBe(false);
      expect(first.durationMs).toBeLessThan(1500 + 1000);
      expect(first.output).toContain(
        '(No diagnostics: the mute language server is still starting after 1.5 s.)',
      );
      expect(await bed.read('notes.mute')).toBe('two\n');
      const second = await readThenEdit(ctx, 'notes.mute', 'two', 'three');
      expect(second.durationMs).toBeLessThan(1500 + 1000);
      expect(second.output).not.toContain('No diagnostics');
    } finally {
      await servers.close();
      await bed.cleanup();
    }
  });
});

describe('plan tasks in two worktrees', () => {
  it('each get a server of their own, reporting on their own copy', { timeout: SLOW }, async () => {
    const bed = await createToolTestBed();
    const servers = new LanguageServers({ waitMs: PATIENT_WAIT_MS }, process.env);
    try {
      await bed.write('tsconfig.json', TSCONFIG);
      await bed.write('src/money.ts', MONEY);
      await bed.write('src/cart.ts', CART);
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: bed.root });
      git('init', '-q');
      git('add', '.');
      git('commit', '-qm', 'start');
      const worktrees = ['one', 'two'].map((name) => path.join(bed.outside, name));
      for (const [index, worktree] of worktrees.entries())
        git('worktree', 'add', '-q', '-b', `task${index}`, worktree);
      const results = await Promise.all(
        worktrees.map(async (worktree, index) => {
          const ctx: ToolContext = {
            ...withServers(bed, servers),
            workspace: await Workspace.open(worktree),
            files: new FileTracker(),
          };
          const find = index === 0 ? 'return formatPrice(' : 'sum + price, 0));';
          const replace = index === 0 ? 'return formatPrice(1, ' : 'sum + price, 0), 2);';
          return readThenEdit(ctx, 'src/cart.ts', find, replace);
        }),
      );
      expect(results.map((result) => result.diagnostics?.map((d) => `${d.path} ${d.code}`))).toEqual([
        ['src/cart.ts TS2554'],
        ['src/cart.ts TS2554'],
      ]);
      expect(
        servers
          .list()
          .map((server) => server.root)
          .sort(),
      ).toEqual([...worktrees].sort());
    } finally {
      await servers.close();
      await bed.cleanup();
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 200) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
