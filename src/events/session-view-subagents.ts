import type { ServerEvent } from './registry.js';
import { addTokens } from './session-view-items.js';
import type { SessionView, SubagentView, ToolCallView } from './session-view-types.js';

/**
 * A subagent's events in a session's view: each child run lives on its `delegate` call
 * (ToolCallView.subagent), with a timeline of its own folded by the same function as the
 * session's. Its requests (approvals, questions) stay in the session's timeline: the user answers
 * them there, and they name the child. Its tokens count to the session and its run as well.
 */

type Fold = (view: SessionView, event: ServerEvent) => SessionView;

/** The delegate call a child's event belongs to, when it is one (requests excepted). */
export function childCallOf(event: ServerEvent): string | undefined {
  if (!('parent_call_id' in event) || typeof event.parent_call_id !== 'string') return undefined;
  if (event.type === 'agent_update') {
    if (event.update_type === 'approval_requested' || event.update_type === 'agent_request_input')
      return undefined;
  }
  return event.parent_call_id;
}

/** Folds a subagent's event into its delegate call (found at any depth); unknown calls are left out. */
export function foldChildEvent(
  view: SessionView,
  callId: string,
  event: ServerEvent,
  fold: Fold,
): SessionView {
  if (event.type === 'agent_update' && event.update_type === 'subagent_started') {
    const started: SubagentView = {
      agent: event.agent,
      job: event.job,
      maxSteps: event.max_steps,
      status: 'running',
      view: { ...emptyChildView(), sessionId: view.sessionId },
      steps: 0,
      files: [],
      usage: { input: 0, output: 0 },
    };
    return updateDelegateCall(view, callId, (call) => ({ ...call, subagent: started })) ?? view;
  }
  if (event.type === 'agent_update' && event.update_type === 'subagent_ended') {
    return (
      updateDelegateCall(view, callId, (call) =>
        call.subagent === undefined
          ? call
          : {
              ...call,
              subagent: {
                ...call.subagent,
                status: event.status,
                steps: event.steps,
                files: event.files,
                ...(event.answer === undefined ? {} : { answer: event.answer }),
                ...(event.reason === undefined ? {} : { reason: event.reason }),
              },
            },
      ) ?? view
    );
  }
  const inner = { ...event, parent_call_id: undefined, agent: undefined };
  const updated =
    updateDelegateCall(view, callId, (call) => {
      if (call.subagent === undefined) return call;
      const child = call.subagent;
      const next: SubagentView = { ...child, view: fold(child.view, inner) };
      if (event.type === 'agent_update' && event.update_type === 'agent_turn_start')
        next.steps = Math.max(child.steps, event.step);
      if (event.type === 'tool_start') next.lastTool = event.name;
      if (event.type === 'agent_update' && event.update_type === 'model_usage')
        next.usage = addTokens(child.usage, tokensOf(event));
      return { ...call, subagent: next };
    }) ?? view;
  // The session's and the run's totals count a child's model calls too.
  if (event.type === 'agent_update' && event.update_type === 'model_usage' && updated !== view) {
    const added = tokensOf(event);
    return {
      ...updated,
      usage: addTokens(updated.usage, added),
      runs: updated.runs.map((run) =>
        run.runId === event.run_id ? { ...run, usage: addTokens(run.usage, added) } : run,
      ),
    };
  }
  return updated;
}

function tokensOf(event: { input_tokens: number; output_tokens: number; cost?: number }) {
  return {
    input: event.input_tokens,
    output: event.output_tokens,
    ...(event.cost === undefined ? {} : { cost: event.cost }),
  };
}

function emptyChildView(): SessionView {
  return {
    lastSeq: 0,
    items: [],
    runs: [],
    plans: [],
    usage: { input: 0, output: 0 },
    runningTools: 0,
    background: [],
  };
}

/**
 * The view with the delegate call `callId` updated, searched in the session's steps and, below
 * them, in the children's own views (a child of a child); undefined when no such call is there.
 */
function updateDelegateCall(
  view: SessionView,
  callId: string,
  update: (call: ToolCallView) => ToolCallView,
): SessionView | undefined {
  for (let index = view.items.length - 1; index >= 0; index -= 1) {
    const item = view.items[index];
    if (item?.kind !== 'step') continue;
    for (let at = 0; at < item.tools.length; at += 1) {
      const call = item.tools[at]!;
      let changed: ToolCallView | undefined;
      if (call.callId === callId) changed = update(call);
      else if (call.subagent !== undefined) {
        const nested = updateDelegateCall(call.subagent.view, callId, update);
        if (nested !== undefined) changed = { ...call, subagent: { ...call.subagent, view: nested } };
      }
      if (changed === undefined) continue;
      const tools = item.tools.slice();
      tools[at] = changed;
      const items = view.items.slice();
      items[index] = { ...item, tools };
      return { ...view, items };
    }
  }
  return undefined;
}
