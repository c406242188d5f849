import { accessSync, constants, mkdtempSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture benchmark: javascript/leap and python/two-fer (toolchains here), go/hello-world. */
export const POLYGLOT_FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/polyglot',
);

/**
 * A cache folder of the tests' own for the exercises' shared installs (not the user's ~/.cache);
 * in /var/tmp, since the sandbox hides the real /tmp from the commands that use it.
 */
const CACHE_HOME = mkdtempSync(path.join('/var/tmp', 'taskweave-polyglot-cache-'));

/**
 * The environment with every PATH folder that holds a `go` program left out: the fixture's Go
 * exercise stands for a language whose toolchain is missing, also on a machine that has Go. The
 * shared installs go to a cache folder of the tests' own.
 */
export function envWithoutGo(): NodeJS.ProcessEnv {
  const folders = (process.env.PATH ?? '').split(path.delimiter).filter((folder) => {
    try {
      accessSync(path.join(folder, 'go'), constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
  return { ...process.env, PATH: folders.join(path.delimiter), XDG_CACHE_HOME: CACHE_HOME };
}

/** Writes a script model file (protocol.md, "The script model") and returns its model name. */
export async function scriptModel(turns: unknown[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'taskweave-polyglot-script-'));
  const file = path.join(dir, 'script.json');
  await writeFile(file, JSON.stringify({ turns }));
  return `script:${file}`;
}

/** The fixture's reference solution of python/two-fer. */
export const TWO_FER_SOLUTION = 'def two_fer(name="you"):\n    return f"One for {name}, one for me."\n';
