import type { ApprovalModeChoice } from '../../../src/events/client-messages.js';
import { useStore } from '../app/store-context.js';

/** What each mode lets run unasked (the README's table), shown as the choices' tooltips. */
const MODES: { mode: ApprovalModeChoice; meaning: string }[] = [
  { mode: 'ask', meaning: 'commands, file changes and MCP tools are asked' },
  { mode: 'edits', meaning: 'file changes run; commands and MCP tools are asked' },
  { mode: 'auto', meaning: 'everything runs, commands inside the sandbox' },
  { mode: 'plan-only', meaning: 'only reading tools run: nothing changes' },
];

/**
 * The server's approval mode in the top bar, switchable: the switch goes to the server, which
 * tells every client (so this shows what the server applies, not what was clicked).
 */
export function ApprovalModeControl() {
  const [state, store] = useStore();
  const safety = state.safety;
  if (!safety) return null;
  const current = MODES.find((choice) => choice.mode === safety.mode);
  const network =
    safety.sandbox === 'off' || safety.sandbox === 'unavailable'
      ? ''
      : safety.network
        ? ', network on'
        : ', no network';
  return (
    <label
      className={`approval-mode approval-${safety.mode}`}
      title={`${current?.meaning ?? safety.mode} · sandbox ${safety.sandbox}${network} · from the next tool call on`}
    >
      <span className="small muted">Approval</span>
      <select
        aria-label="Approval mode"
        value={safety.mode}
        onChange={(event) => store.setApprovalMode(event.target.value as ApprovalModeChoice)}
      >
        {MODES.map(({ mode, meaning }) => (
          <option key={mode} value={mode} title={meaning}>
            {mode}
          </option>
        ))}
      </select>
      <span className="small muted sandbox-label">
        sandbox {safety.sandbox}
        {network}
      </span>
    </label>
  );
}
