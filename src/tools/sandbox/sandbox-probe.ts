import { spawn } from 'node:child_process';
import { findOnPath } from '../process/find-on-path.js';
import { WRAPPER_INPUT_FD } from '../process/run-shell-command.js';
import { CONFINEMENT_FLAGS, identityFlags, seccompConfinement } from './sandbox-confinement.js';

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
  // The probe runs without network: the fullest filter a command gets.
  const seccomp = seccompConfinement({ network: false });
  return new Promise((resolve) => {
    const child = spawn(
      bwrap,
      [...args, '--unshare-net', ...CONFINEMENT_FLAGS, ...identityFlags(), ...seccomp.flags, '--', 'true'],
      {
        timeout: SANDBOX_PROBE_TIMEOUT_MS,
        stdio:
          seccomp.input === undefined ? ['ignore', 'ignore', 'pipe'] : ['ignore', 'ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const input = child.stdio[WRAPPER_INPUT_FD];
    if (seccomp.input !== undefined && input && 'end' in input) {
      input.on('error', () => {});
      input.end(seccomp.input);
    }
    const unusable = (detail: string) =>
      resolve({ available: false, reason: `bubblewrap cannot create its namespaces here (${detail})` });
    child.on('error', (error) => unusable(error.message));
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ available: true, bwrap });
      else unusable(stderr.trim() || `it ended with ${code ?? signal}`);
    });
  });
}
