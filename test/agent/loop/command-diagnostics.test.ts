import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src/events/registry.js';
import { LanguageServers } from '../../../src/tools/lsp/index.js';
import type { CommandSandbox } from '../../../src/tools/sandbox/index.js';
import { mockModel } from '../../helpers/mock-model.js';
import { runWithHarness } from '../../helpers/run-harness.js';
import { safetyOf } from '../../helpers/safety.js';

// The real typescript-language-server, in bubblewrap as a run starts it. A cold server loads its
// project in seconds on a busy machine: the first edit waits long enough for it.
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

function gitProject(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'taskweave-command-diagnostics-')));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'tsconfig.json'), TSCONFIG);
  writeFileSync(path.join(root, 'src/money.ts'), MONEY);
  writeFileSync(path.join(root, 'src/cart.ts'), CART);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=user@example.com', '-c', 'user.name=User', 'add', '-A');
  git('-c', 'user.email=user@example.com', '-c', 'user.name=User', 'commit', '-qm', 'first');
  return root;
}

function commandResults(events: ServerEvent[]) {
  return events.flatMap((event) =>
    event.type === 'tool_complete' && event.name === 'run_command' ? [event] : [],
  );
}

describe('diagnostics for the files a command changed, from the real typescript-language-server', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('reports the caller a command (sed -i) broke in another open file, not the error already there, and nothing once a command fixes it', {
    timeout: SLOW,
  }, async () => {
    const root = gitProject();
    const servers = new LanguageServers({ waitMs: PATIENT_WAIT_MS }, process.env);
    cleanups.push(async () => {
      await servers.close();
      await rm(root, { recursive: true, force: true });
    });
    const model = mockModel([
      { toolCalls: [{ name: 'read_file', args: { path: 'src/money.ts' } }] },
      // An edit that changes no type: the server is up and has both files open after it.
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: {
              path: 'src/money.ts',
              edits: [{ find: 'export function', replace: '/** Cents as dollars. */\nexport function' }],
            },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'run_command',
            args: { command: "sed -i 's/(cents: number)/(cents: number, currency: string)/' src/money.ts" },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'run_command',
            args: { command: "sed -i 's/, currency: string)/)/' src/money.ts" },
          },
        ],
      },
      { text: 'done' },
    ]);
    const run = await runWithHarness({
      model,
      workspaceRoot: root,
      safety: safetyOf({ mode: 'auto', allow: [], deny: [] }, sandbox),
      languageServers: servers,
    });
    expect(run.result.status).toBe('completed');
    const [broke, fixed] = commandResults(run.events);
    expect(broke?.diagnostics).toEqual([
      expect.objectContaining({ path: 'src/cart.ts', line: 4, severity: 'error', code: 'TS2554' }),
    ]);
    expect(broke?.result).toContain('The language server reports 1 new problem after this change (1 error)');
    expect(broke?.result).toContain('src/cart.ts:4:');
    expect(broke?.result).not.toContain('already broken');
    expect(fixed?.diagnostics).toBeUndefined();
    expect(fixed?.result).not.toContain('language server');
  });
});
