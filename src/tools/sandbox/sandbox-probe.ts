import { execFile } from 'node:child_process';
import { findOnPath } from '../process/find-on-path.js';
import { CONFINEMENT_FLAGS, identityFlags } from './sandbox-confinement.js';

/** How long the probe of bubblewrap may take before it counts as unusable. */
export const SANDBOX_PROBE_TIMEOUT_MS = 5_000;

/** Whether commands can be confined here: the bwrap found, or why not. */
export type SandboxAvailability = { available: true; bwrap: string } | { available: false; reason: string };

const probes = new Map<string, Promise<SandboxAvailability>>();

/**
 * Finds `bwrap` on the PATH and checks that it can create the namespaces the sandbox uses, with the
 * same confinement as every command (a container may forbid user or PID namespaces; a missing one
 * means no sandbox, never a weaker one). Probed once per PATH in a process.
 */
export function probeSandbox(env: NodeJS.ProcessEnv = process.env): Promise<SandboxAvailability> {
  const searchPath = env.PATH ?? '';
  let probe = probes.get(searchPath);
  if (!probe) {
    probe = runProbe(searchPath);
    probes.set(searchPath, probe);
  }
  return probe;
}

async function runProbe(searchPath: string): Promise<SandboxAvailability> {
  const bwrap = findOnPath('bwrap', searchPath);
  if (bwrap === undefined) {
    return {
      available: false,
      reason: 'bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt install bubblewrap)',
    };
  }
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  return new Promise((resolve) => {
    execFile(
      bwrap,
      [...args, '--unshare-net', ...CONFINEMENT_FLAGS, ...identityFlags(), '--', 'true'],
      { timeout: SANDBOX_PROBE_TIMEOUT_MS },
      (error, _stdout, stderr) => {
        if (!error) resolve({ available: true, bwrap });
        else {
          const detail = stderr.trim() || error.message;
          resolve({ available: false, reason: `bubblewrap cannot create its namespaces here (${detail})` });
        }
      },
    );
  });
}
