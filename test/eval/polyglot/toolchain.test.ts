import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { polyglotLanguage } from '../../../src/eval/polyglot/languages.js';
import { toolchainStatus } from '../../../src/eval/polyglot/toolchain.js';

/** A folder of programs that each exit with the given code, to be the whole PATH. */
async function pathWith(programs: Record<string, number>): Promise<NodeJS.ProcessEnv> {
  const dir = await mkdtemp(path.join(tmpdir(), 'taskweave-toolchain-'));
  for (const [name, code] of Object.entries(programs)) {
    await writeFile(path.join(dir, name), `#!/bin/sh\nexit ${code}\n`);
    await chmod(path.join(dir, name), 0o755);
  }
  return { PATH: dir };
}

const language = (name: string) => polyglotLanguage(name)!;

describe('toolchain detection', () => {
  it('names the first program a language misses', async () => {
    expect(toolchainStatus(language('go'), await pathWith({}))).toEqual({
      available: false,
      reason: 'go: not found',
    });
    expect(toolchainStatus(language('cpp'), await pathWith({ cmake: 0 }))).toEqual({
      available: false,
      reason: 'make: not found',
    });
    expect(toolchainStatus(language('java'), await pathWith({ java: 0 }))).toEqual({
      available: false,
      reason: 'gradle: not found',
    });
    expect(toolchainStatus(language('rust'), await pathWith({ cargo: 0 }))).toEqual({ available: true });
  });

  it('a toolchain on the PATH whose version command fails is not available, with what it said', async () => {
    const env = await pathWith({ cargo: 0 });
    await writeFile(
      path.join(env.PATH!, 'cargo'),
      "#!/bin/sh\necho 'error: rustup could not choose a version of cargo to run, because one wasn'\\''t specified explicitly, and no default is configured.' >&2\nexit 1\n",
    );
    expect(toolchainStatus(language('rust'), env)).toEqual({
      available: false,
      reason:
        "cargo --version failed: error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured.",
    });
  });

  it('python needs pytest: as a module of python3, else as a program', async () => {
    expect(toolchainStatus(language('python'), await pathWith({ python3: 0 }))).toEqual({ available: true });
    const missing = toolchainStatus(language('python'), await pathWith({ python3: 1 }));
    expect(missing).toMatchObject({ available: false, reason: expect.stringMatching(/^pytest: not found/) });
    expect(toolchainStatus(language('python'), await pathWith({ python3: 1, 'pytest-3': 0 }))).toEqual({
      available: true,
      test: 'pytest-3 -q',
    });
  });
});
