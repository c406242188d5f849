import type { SessionModeState } from '@agentclientprotocol/sdk';
import { APPROVAL_MODES, type ApprovalMode } from '../runtime/defaults.js';

/** What each approval mode means, as the editor's mode picker says it. */
const MODE_TEXT: Record<ApprovalMode, { name: string; description: string }> = {
  ask: { name: 'Ask', description: 'Ask before every file change and command' },
  edits: { name: 'Auto-edit', description: 'Change files unasked; ask before commands' },
  auto: { name: 'Auto', description: 'Run tool calls unasked (commands stay in the sandbox)' },
  'plan-only': { name: 'Plan only', description: 'Read and plan; change nothing' },
};

/** The approval modes as ACP session modes, the current one first chosen. */
export function sessionModes(current: ApprovalMode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: APPROVAL_MODES.map((mode) => ({ id: mode, ...MODE_TEXT[mode] })),
  };
}

/** The approval mode a mode id names, or undefined. */
export function approvalModeOf(modeId: string): ApprovalMode | undefined {
  return APPROVAL_MODES.find((mode) => mode === modeId);
}
