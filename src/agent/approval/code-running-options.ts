import path from 'node:path';

/**
 * Options that make an allowed program run code given on the command line rather than the
 * project's own (`npm test --node-options=--import=data:…`, `make --eval=…`). A command with one
 * of them is asked even when an allow entry or an "always" answer covers the program.
 */
const ANY_PROGRAM = [
  '--node-options',
  '--script-shell',
  '--userconfig',
  '--globalconfig',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--eval',
  '--exec',
  '--upload-pack',
  '--receive-pack',
  '--open-files-in-pager',
  '--config-env',
  '--ext-diff',
  '--shell',
];

/** Short options (and make's variable overrides) by program. */
const BY_PROGRAM: Record<string, readonly string[]> = {
  npm: ['-c', '--call'],
  pnpm: ['-c', '--call'],
  yarn: ['-c'],
  node: ['-e', '-p', '--print', '-r', '-i', '--interactive'],
  make: ['-E', '-f', '--file', '--makefile', 'NAME=value'],
  gmake: ['-E', '-f', '--file', '--makefile', 'NAME=value'],
  git: ['-O'],
  cargo: ['--config', '-Z'],
  python: ['-c'],
  python3: ['-c'],
};

/**
 * The first option of a command that runs code of its own choosing, or undefined. Options are
 * matched whole or with an attached value (`--node-options=…`, `-Efoo`); for make, a
 * `NAME=value` argument overrides any variable of the Makefile (`SHELL=…`, `CC=…`).
 */
export function codeRunningOption(words: readonly string[]): string | undefined {
  const program = path.basename(words[0] ?? '');
  const own = BY_PROGRAM[program] ?? [];
  for (const word of words.slice(1)) {
    for (const option of [...ANY_PROGRAM, ...own]) {
      if (option === 'NAME=value') {
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) return word.slice(0, word.indexOf('=') + 1);
        continue;
      }
      if (word === option || word.startsWith(option.startsWith('--') ? `${option}=` : option)) return option;
    }
  }
  return undefined;
}
