import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguageServers } from '../../../src/tools/lsp/index.js';
import type { CommandSandbox } from '../../../src/tools/sandbox/index.js';
import { mockModel } from '../../helpers/mock-model.js';
import { runWithHarness } from '../../helpers/run-harness.js';
import { safetyOf } from '../../helpers/safety.js';

// The real typescript-language-server needs 5–11 s to load a project cold on this machine: an
// edit allowed 3 s finds it still starting unless the run warmed it while the model thought.
const SHORT_WAIT_MS = 3000;
const sandbox: CommandSandbox = existsSync('/usr/bin/bwrap')
  ? { kind: 'bwrap', bwrap: '/usr/bin/bwrap', mode: 'workspace-write', network: false }
  : { kind: 'none' };

function tsProject(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'taskweave-warm-lsp-')));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
  );
  writeFileSync(path.join(root, 'src/money.ts'), 'export const cents = 100;\n');
  return root;
}

describe('the workspace language server warmed with the first model request', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('the first edit, after the model took its time (a 15 s command), finds the server warm and reports its error within 3 s', {
    timeout: 180_000,
  }, async () => {
    const root = tsProject();
    const servers = new LanguageServers({ waitMs: SHORT_WAIT_MS }, process.env);
    cleanups.push(async () => {
      await servers.close();
      await rm(root, { recursive: true, force: true });
    });
    const model = mockModel([
      // No file of the project is read before the edit: only the run's start can have warmed it.
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 15' } }] },
      {
        toolCalls: [
          {
            name: 'write_file',
            args: { path: 'src/bad.ts', content: 'export const count: number = "three";\n' },
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
    const written = run.events.find((event) => event.type === 'tool_complete' && event.name === 'write_file');
    if (written?.type !== 'tool_complete') throw new Error('no write_file result');
    expect(written.result).not.toContain('still starting');
    expect(written.diagnostics).toEqual([
      expect.objectContaining({ path: 'src/bad.ts', severity: 'error', code: 'TS2322' }),
    ]);
  });
});
