import { spawnSync } from 'node:child_process';
import { findOnPath } from '../../tools/find-on-path.js';
import type { PolyglotLanguage } from './languages.js';

/** How long the check of a Python module may take. */
const MODULE_CHECK_TIMEOUT_MS = 20_000;

/** Whether a language's exercises can be tested on this machine, and why not. */
export type ToolchainStatus = { available: true } | { available: false; reason: string };

/**
 * Checks that a language's programs are on the PATH of `env` (and its Python module imports):
 * `{ available: false, reason: 'go: not found' }` when one is missing.
 */
export function toolchainStatus(language: PolyglotLanguage, env: NodeJS.ProcessEnv): ToolchainStatus {
  for (const program of language.programs) {
    if (findOnPath(program, env.PATH ?? '') === undefined)
      return { available: false, reason: `${program}: not found` };
  }
  if (language.pythonModule !== undefined) {
    const check = spawnSync('python3', ['-c', `import ${language.pythonModule}`], {
      env,
      stdio: 'ignore',
      timeout: MODULE_CHECK_TIMEOUT_MS,
    });
    if (check.status !== 0)
      return {
        available: false,
        reason: `${language.pythonModule}: not found (python3 -m ${language.pythonModule}; Debian: apt install python3-${language.pythonModule})`,
      };
  }
  return { available: true };
}
