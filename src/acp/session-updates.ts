import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ServerEvent } from '../events/registry.js';
import { textContent, toolDiffs, toolKind, toolLocations, toolTitle } from './tool-calls.js';

/** The last lines of a command's output shown while it runs (the editor replaces the content each time). */
const LIVE_OUTPUT_LINES = 200;

/** What a plan entry's task is doing beyond ACP's three statuses (failed, blocked, skipped go in `_meta`). */
type TaskState = 'pending' | 'in_progress' | 'completed' | 'failed' | 'blocked' | 'skipped';

interface PlanTask {
  id: string;
  title: string;
  dependsOn: string[];
  state: TaskState;
}

const ENTRY_STATUS: Record<TaskState, PlanEntry['status']> = {
  pending: 'pending',
  in_progress: 'in_progress',
  completed: 'completed',
  failed: 'pending',
  blocked: 'pending',
  skipped: 'completed',
};

/**
 * A session's events as ACP `session/update`s, one event at a time (live or replayed by a
 * load): text and reasoning chunks, tool calls and their updates with kind, locations, diffs and
 * output, the plan's entries as its tasks change, usage. Requests (approvals, plans, failures,
 * questions) are the session's to ask; this only shows what happened.
 */
export class SessionUpdates {
  /** Steps whose reply text streamed (their `agent_reason` repeats it: not shown twice). */
  private readonly streamedSteps = new Set<string>();
  private plan: PlanTask[] = [];
  private readonly output = new Map<string, string[]>();
  private readonly calls = new Map<string, { name: string; args: unknown }>();
  /** Calls the editor already knows (announced pending when their approval was asked). */
  private readonly announced = new Set<string>();
  /** The session's tokens and cost so far (cost: undefined until a call had a price). */
  private readonly usage: { inputTokens: number; outputTokens: number; cost?: number } = {
    inputTokens: 0,
    outputTokens: 0,
  };

  constructor(
    private readonly workspace: string,
    private readonly contextWindow: number,
  ) {}

  /** The updates one event makes; `replay` adds the user's goals, which a live client already shows. */
  map(event: ServerEvent, options: { replay?: boolean } = {}): SessionUpdate[] {
    if (event.type === 'agent_update') return this.agentUpdate(event, options.replay ?? false);
    switch (event.type) {
      case 'tool_start': {
        this.calls.set(event.call_id, { name: event.name, args: event.args });
        return [
          {
            sessionUpdate: this.announced.has(event.call_id) ? 'tool_call_update' : 'tool_call',
            toolCallId: event.call_id,
            title: toolTitle(event.name, event.args),
            kind: toolKind(event.name),
            status: 'in_progress',
            locations: toolLocations(event.name, event.args, this.workspace),
            rawInput: event.args,
          },
        ];
      }
      case 'tool_progress': {
        const lines = [...(this.output.get(event.call_id) ?? []), event.content].slice(-LIVE_OUTPUT_LINES);
        this.output.set(event.call_id, lines);
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.call_id,
            content: [textContent(lines.join('\n'))],
          },
        ];
      }
      case 'tool_complete': {
        this.output.delete(event.call_id);
        const call = this.calls.get(event.call_id);
        const diffs = toolDiffs(event.name, call?.args, this.workspace, event.display);
        const content: ToolCallContent[] = [...diffs, textContent(event.result)];
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.call_id,
            status: 'completed',
            content,
            rawOutput: {
              result: event.result,
              ...(event.display === undefined ? {} : { display: event.display }),
            },
          },
        ];
      }
      case 'tool_error':
        this.output.delete(event.call_id);
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.call_id,
            status: 'failed',
            content: [textContent(event.error)],
            rawOutput: { error: event.error },
          },
        ];
      default:
        return [];
    }
  }

  private agentUpdate(
    event: Extract<ServerEvent, { type: 'agent_update' }>,
    replay: boolean,
  ): SessionUpdate[] {
    switch (event.update_type) {
      case 'agent_start':
        this.streamedSteps.clear();
        return replay && !event.continued ? [userText(event.goal)] : [];
      case 'agent_user_input':
        return replay ? [userText(event.content)] : [];
      case 'agent_text_delta':
        this.streamedSteps.add(stepKey(event.step, event.task_id));
        return [agentText(event.content)];
      case 'agent_reason':
        if (this.streamedSteps.has(stepKey(event.step, event.task_id))) return [];
        return [thought(event.content)];
      case 'agent_observe':
        return [thought(event.content)];
      case 'agent_note':
        return [thought(event.content)];
      case 'approval_requested':
        // The call waits: the editor shows it pending, then asks about it (a permission request).
        this.announced.add(event.call_id);
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: event.call_id,
            title: toolTitle(event.name, event.args),
            kind: toolKind(event.name),
            status: 'pending',
            locations: toolLocations(event.name, event.args, this.workspace),
            content: [textContent(event.preview)],
            rawInput: event.args,
          },
        ];
      case 'agent_request_input':
        // Live, the session asks it (an elicitation or a message); replayed, it is what was asked.
        return replay ? [agentText(event.question)] : [];
      case 'model_usage': {
        const totals = this.usage;
        totals.inputTokens += event.input_tokens;
        totals.outputTokens += event.output_tokens;
        if (event.cost !== undefined) totals.cost = (totals.cost ?? 0) + event.cost;
        // `used` is what is in the context now (the last call's prompt and reply); the cost and
        // the tokens in `_meta` are the session's running totals, over every run and process.
        return [
          {
            sessionUpdate: 'usage_update',
            used: event.input_tokens + event.output_tokens,
            size: this.contextWindow,
            ...(totals.cost === undefined ? {} : { cost: { amount: totals.cost, currency: 'USD' } }),
            _meta: {
              taskweave: { input_tokens: totals.inputTokens, output_tokens: totals.outputTokens },
            },
          },
        ];
      }
      case 'plan_proposed':
      case 'plan_resumed': {
        const completed = new Set(event.update_type === 'plan_resumed' ? event.completed : []);
        this.plan = event.tasks.map((task) => ({
          id: task.id,
          title: task.title,
          dependsOn: task.depends_on,
          state: completed.has(task.id) ? 'completed' : 'pending',
        }));
        return [this.planUpdate()];
      }
      case 'task_started':
        return this.taskState(event.task_id, event.title, 'in_progress');
      case 'task_completed':
        return this.taskState(event.task_id, event.title, 'completed');
      case 'task_failed':
        return this.taskState(event.task_id, event.title, 'failed');
      case 'task_blocked':
        return this.taskState(event.task_id, event.title, 'blocked');
      case 'task_skipped':
        return this.taskState(event.task_id, event.title, 'skipped');
      case 'agent_completion':
        if (event.status === 'failed' && event.reason)
          return [agentText(`\n\nThe run failed: ${event.reason}`)];
        return [];
      default:
        return [];
    }
  }

  private taskState(taskId: string, title: string, state: TaskState): SessionUpdate[] {
    const task =
      this.plan.find((entry) => entry.id === taskId) ?? this.plan.find((entry) => entry.title === title);
    if (task === undefined) return [];
    task.state = state;
    return [this.planUpdate()];
  }

  private planUpdate(): SessionUpdate {
    return {
      sessionUpdate: 'plan',
      entries: this.plan.map((task) => ({
        content: task.title,
        priority: 'medium',
        status: ENTRY_STATUS[task.state],
        _meta: { taskweave: { task_id: task.id, depends_on: task.dependsOn, state: task.state } },
      })),
    };
  }
}

function stepKey(step: number, taskId: string | undefined): string {
  return `${taskId ?? ''}:${step}`;
}

function agentText(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

function userText(text: string): SessionUpdate {
  return { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } };
}

function thought(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } };
}
