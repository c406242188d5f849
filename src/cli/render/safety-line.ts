import type { Runtime } from '../../runtime/index.js';

/** `approval ask · sandbox workspace-write (no network)`: how the runtime's runs are kept safe now. */
export function safetyLine(runtime: Runtime): string {
  const { safety } = runtime;
  const sandbox = safety.sandboxLabel;
  const network =
    sandbox === 'off' || sandbox === 'unavailable' ? '' : safety.network ? ' (network on)' : ' (no network)';
  return `approval ${runtime.approvalMode} · sandbox ${sandbox}${network}`;
}
