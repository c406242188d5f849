import type { ServerEvent } from '../../events/registry.js';
import type { RequestInput } from '../../store/requests.js';

/**
 * The request an event asks of the user (a question, a tool call's approval, a plan, a failed
 * task's fate), as the store records it; undefined for any other event.
 */
export function requestOfEvent(event: ServerEvent): RequestInput | undefined {
  if (event.type !== 'agent_update') return undefined;
  const where = { sessionId: event.session_id, runId: event.run_id };
  switch (event.update_type) {
    case 'agent_request_input':
      return { ...where, id: event.request_id, kind: 'input', taskId: event.task_id ?? null };
    case 'approval_requested':
      return { ...where, id: event.request_id, kind: 'approval', taskId: event.task_id ?? null };
    case 'plan_proposed':
      return { ...where, id: event.plan_id, kind: 'plan' };
    case 'failure_decision_requested':
      return {
        ...where,
        id: event.request_id,
        kind: 'failure',
        taskId: event.task_id,
        choices: event.choices,
      };
    default:
      return undefined;
  }
}
