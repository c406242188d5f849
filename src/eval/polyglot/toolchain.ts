import { spawnSync } from 'node:child_process';
import { findOnPath } from '../../tools/process/index.js';
import type { PolyglotLanguage } from './languages.js';

/** How long the check of a Python module, or a toolchain's version command, may take. */
const MODULE_CHECK_TIMEOUT_MS = 20_000;
/** Characters of a failed probe's output given as the reason. */
const PROBE_REASON_CHARS = 200;

/**
 * Whether a language's exercises can be tested on this machine, and why not; `test` is the test
 * command to use when it is not the language's own (pytest as a program rather than a module).
 */
export type ToolchainStatus = { available: true; test?: string } | { available: false; reason: string };

/**
 * Checks that a language's programs are on the PATH of `env`, that its probe (a version command)
 * succeeds, and that its Python module imports (or that the module's program is there):
 * `{ available: false, reason: 'go: not found' }` when one is missing.
 */
export function toolchainStatus(language: PolyglotLanguage, env: NodeJS.ProcessEnv): ToolchainStatus {
  for (const program of language.programs) {
    if (findOnPath(program, env.PATH ?? '') === undefined)
      return { available: false, reason: `${program}: not found` };
  }
  if (language.probe !== undefined) {
    const [program = '', ...args] = language.probe;
    const probe = spawnSync(findOnPath(program, env.PATH ?? '') ?? program, args, {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: MODULE_CHECK_TIMEOUT_MS,
    });
    if (probe.status !== 0) {
      const said = `${probe.stderr ?? ''}\n${probe.stdout ?? ''}`.replace(/\s+/g, ' ').trim();
      const why = said === '' ? (probe.error?.message ?? `exit code ${probe.status}`) : said;
      return {
        available: false,
        reason: `${language.probe.join(' ')} failed: ${why.slice(0, PROBE_REASON_CHARS)}`,
      };
    }
  }
  if (language.pythonModule !== undefined) {
    const python = findOnPath('python3', env.PATH ?? '') ?? 'python3';
    const check = spawnSync(python, ['-c', `import ${language.pythonModule}`], {
      env,
      stdio: 'ignore',
      timeout: MODULE_CHECK_TIMEOUT_MS,
    });
    if (check.status !== 0) {
      // Debian's python3-pytest beside another python3 first on the PATH (pyenv): its own program.
      for (const program of [language.pythonModule, `${language.pythonModule}-3`]) {
        if (findOnPath(program, env.PATH ?? '') !== undefined)
          return { available: true, test: `${program} -q` };
      }
      return {
        available: false,
        reason: `${language.pythonModule}: not found (python3 -m ${language.pythonModule}; Debian: apt install python3-${language.pythonModule})`,
      };
    }
  }
  return { available: true };
}
