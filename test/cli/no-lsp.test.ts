import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';

/*
 * Issue 43, item 4: `--no-lsp` maps to the runtime's `lsp: false`: no language server starts, so a
 * file change's result carries no diagnostics (nor a note about a server), whatever the config says.
 */
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const made = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  folders.push(made);
  return made;
}

/** A TypeScript project, and a config home whose config waits long for the real server. */
function project(): { root: string; configHome: string } {
  const root = folder('taskweave-no-lsp-');
  mkdirSync(path.join(root, 'src'));
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
  );
  const configHome = folder('taskweave-no-lsp-config-');
  mkdirSync(path.join(configHome, 'taskweave'));
  writeFileSync(
    path.join(configHome, 'taskweave', 'config.json'),
    JSON.stringify({ lsp: { waitMs: 60_000 } }),
  );
  return { root, configHome };
}

const SCRIPT = {
  turns: [
    {
      toolCalls: [
        {
          name: 'write_file',
          args: { path: 'src/bad.ts', content: 'export const count: number = "three";\n' },
        },
      ],
    },
    { text: 'written' },
  ],
};

async function writeResult(extra: string[]) {
  const { root, configHome } = project();
  const script = await writeScript(folder('taskweave-no-lsp-script-'), SCRIPT);
  const result = await runCli(
    [
      'run',
      'write src/bad.ts',
      '--cwd',
      root,
      '--model',
      `script:${script}`,
      '--approval',
      'auto',
      '--json',
      ...extra,
    ],
    { env: { XDG_CONFIG_HOME: configHome }, timeoutMs: 150_000 },
  );
  expect(result.code, result.stderr).toBe(0);
  const written = parseJsonLines(result.stdout).find(
    (event) => event.type === 'tool_complete' && event.name === 'write_file',
  );
  if (written?.type !== 'tool_complete') throw new Error(`no write_file result:\n${result.stdout}`);
  return written;
}

describe('taskweave run --no-lsp', () => {
  it('starts no language server: the write that brings a type error reports none, where without the flag it does', {
    timeout: 300_000,
  }, async () => {
    const withServer = await writeResult([]);
    expect(withServer.diagnostics).toEqual([
      expect.objectContaining({ path: 'src/bad.ts', severity: 'error', code: 'TS2322' }),
    ]);
    const without = await writeResult(['--no-lsp']);
    expect(without.diagnostics).toBeUndefined();
    expect(without.result).not.toContain('language server');
  });
});
