import { probeSandbox } from '../../tools/sandbox/index.js';
import type { SandboxMode } from '../../tools/sandbox-modes.js';

/**
 * Starts the bubblewrap probe now, while the run's code is still loading, so that the runtime
 * finds its answer ready (probeSandbox runs once per PATH in a process and RuntimeSafety.resolve
 * awaits the same probe: the sandbox is decided exactly as before, only sooner). Nothing is probed
 * when the command line turned the sandbox off; a config that turns it off costs one probe that
 * nobody reads.
 */
export function probeSandboxAhead(mode: SandboxMode | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (mode === 'off') return;
  void probeSandbox(env);
}
