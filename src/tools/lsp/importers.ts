import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { LanguageServerSpec } from './server-specs.js';

/** At most this many importing files are opened with a changed file (each costs the server a check). */
export const MAX_IMPORTERS = 10;
const SEARCH_TIMEOUT_MS = 2000;

/**
 * The files under `root` that import `file` by its base name, found with ripgrep (honouring
 * .gitignore); at most MAX_IMPORTERS. A name match may be another module of the same name: the
 * server only checks the file, so a stray one costs time, not correctness.
 */
export async function findImporters(file: string, root: string, spec: LanguageServerSpec): Promise<string[]> {
  if (spec.importPattern === undefined) return [];
  const baseName = path.basename(file, path.extname(file));
  const moduleName =
    baseName === 'index' || baseName === '__init__' ? path.basename(path.dirname(file)) : baseName;
  const globs = (spec.importerExtensions ?? spec.extensions).flatMap((extension) => [
    '--glob',
    `*${extension}`,
  ]);
  const output = await new Promise<string>((resolve) => {
    execFile(
      ripgrepPath(),
      [
        '--files-with-matches',
        '--no-messages',
        '--max-count',
        '1',
        ...globs,
        '--',
        spec.importPattern?.(moduleName) ?? '',
        root,
      ],
      { timeout: SEARCH_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
      // ripgrep exits 1 when nothing matches: no importers.
      (_error, stdout) => resolve(stdout),
    );
  });
  return output
    .split('\n')
    .filter((line) => line !== '' && path.resolve(line) !== path.resolve(file))
    .sort()
    .slice(0, MAX_IMPORTERS);
}

/**
 * One source file of the server's language under `root` (ripgrep, honouring .gitignore;
 * declaration files aside), to open so that the server loads the project; undefined when none.
 */
export async function firstSourceFile(root: string, spec: LanguageServerSpec): Promise<string | undefined> {
  const globs = spec.extensions.flatMap((extension) => ['--glob', `*${extension}`]);
  const output = await new Promise<string>((resolve) => {
    execFile(
      ripgrepPath(),
      ['--files', '--no-messages', ...globs, '--glob', '!*.d.ts', '--', root],
      { timeout: SEARCH_TIMEOUT_MS, maxBuffer: 256 * 1024 },
      // A listing cut short (too many files) still has a first line.
      (_error, stdout) => resolve(stdout),
    );
  });
  const first = output.split('\n').find((line) => line !== '');
  return first === undefined ? undefined : path.resolve(first);
}

let ripgrep: string | undefined;
function ripgrepPath(): string {
  ripgrep ??= (createRequire(import.meta.url)('@vscode/ripgrep') as { rgPath: string }).rgPath;
  return ripgrep;
}
