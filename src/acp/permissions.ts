import type {
  PermissionOption,
  RequestPermissionOutcome,
  RequestPermissionRequest,
} from '@agentclientprotocol/sdk';
import type { AgentUpdateOf } from '../events/registry.js';
import type { FailureChoice, RequestAnswer } from '../runtime/index.js';
import { textContent, toolKind, toolLocations, toolTitle } from './tool-calls.js';

/** A request of the run as an ACP permission request, and how the editor's choice answers it. */
export interface PermissionAsk {
  /** The runtime's request id (a plan's: its plan id). */
  requestId: string;
  params: Omit<RequestPermissionRequest, 'sessionId'>;
  answer(outcome: RequestPermissionOutcome): RequestAnswer;
}

/**
 * A tool call waiting for approval: allow once, allow always (what the terminal's "Always"
 * allows, its label in the option's name), reject. No choice (the prompt cancelled) is a denial.
 */
export function approvalAsk(event: AgentUpdateOf<'approval_requested'>, workspace: string): PermissionAsk {
  const options: PermissionOption[] = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'always', name: event.always ?? 'Always allow', kind: 'allow_always' },
    { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
  ];
  return {
    requestId: event.request_id,
    params: {
      toolCall: {
        toolCallId: event.call_id,
        title: toolTitle(event.name, event.args),
        kind: toolKind(event.name),
        status: 'pending',
        locations: toolLocations(event.name, event.args, workspace),
        content: [textContent(event.preview)],
        rawInput: event.args,
      },
      options,
      _meta: { taskweave: { request_id: event.request_id, kind: 'approval' } },
    },
    answer: (outcome) => {
      const chosen = selected(outcome);
      const decision = chosen === 'allow' ? 'allow' : chosen === 'always' ? 'always' : 'deny';
      return decision === 'deny' && chosen === undefined
        ? { kind: 'approval', decision, reason: 'The user cancelled the prompt in the editor.' }
        : { kind: 'approval', decision };
    },
  };
}

/** A plan waiting for approval: approve or reject (no choice rejects it). */
export function planAsk(event: AgentUpdateOf<'plan_proposed'>): PermissionAsk {
  const lines = event.tasks.map((task, index) => {
    const after = task.depends_on.length > 0 ? ` (after ${task.depends_on.join(', ')})` : '';
    return `${index + 1}. ${task.title}${after}`;
  });
  return {
    requestId: event.plan_id,
    params: {
      toolCall: {
        toolCallId: `plan-${event.plan_id}`,
        title: `Approve the plan (${event.tasks.length} task${event.tasks.length === 1 ? '' : 's'})`,
        kind: 'think',
        status: 'pending',
        content: [textContent(lines.join('\n'))],
        rawInput: { plan_id: event.plan_id, tasks: event.tasks },
      },
      options: [
        { optionId: 'approve', name: 'Approve the plan', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject the plan', kind: 'reject_once' },
      ],
      _meta: { taskweave: { request_id: event.plan_id, kind: 'plan' } },
    },
    answer: (outcome) => ({ kind: 'plan', decision: selected(outcome) === 'approve' ? 'approve' : 'reject' }),
  };
}

const FAILURE_OPTIONS: Record<FailureChoice, Omit<PermissionOption, 'optionId'>> = {
  retry: { name: 'Retry the task', kind: 'allow_once' },
  resolve: { name: 'Resolve the conflict', kind: 'allow_once' },
  revise: { name: 'Revise the plan', kind: 'allow_once' },
  skip: { name: 'Skip the task', kind: 'reject_once' },
  abort: { name: 'Abort the run', kind: 'reject_always' },
};

/** A failed plan task waiting for a decision: its choices as options (no choice aborts). */
export function failureAsk(event: AgentUpdateOf<'failure_decision_requested'>): PermissionAsk {
  const blocked = event.blocked.length > 0 ? `\nWaiting on it: ${event.blocked.join(', ')}` : '';
  return {
    requestId: event.request_id,
    params: {
      toolCall: {
        toolCallId: `failure-${event.request_id}`,
        title: `Task ${event.task_id} failed`,
        kind: 'other',
        status: 'failed',
        content: [textContent(`${event.reason}${blocked}`)],
      },
      options: event.choices.map((choice) => ({ optionId: choice, ...FAILURE_OPTIONS[choice] })),
      _meta: { taskweave: { request_id: event.request_id, kind: 'failure' } },
    },
    answer: (outcome) => {
      const chosen = selected(outcome);
      const decision = event.choices.find((choice) => choice === chosen) ?? 'abort';
      return { kind: 'failure', decision };
    },
  };
}

function selected(outcome: RequestPermissionOutcome): string | undefined {
  return outcome.outcome === 'selected' ? outcome.optionId : undefined;
}
