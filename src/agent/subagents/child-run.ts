import type { RunStatus } from '../../events/registry.js';
import type { TokenUsage } from '../../model/call-model.js';
import { fillSection } from '../../prompts/template.js';
import { FileTracker } from '../../tools/file-tracker.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/types.js';
import { runStepLoop } from '../loop/driver.js';
import type { LoopOutcome } from '../loop/step.js';
import type { Conversation, RunContext } from '../state/run-state.js';
import { type SubagentTag, subagentFields } from '../state/subagent-tag.js';
import { SUBAGENT_TEXTS } from './builtin-agents.js';
import { childStepDecider } from './child-step.js';
import type { Subagent } from './subagent.js';

/** One `delegate` call: the agent, its job, and where in the parent it was made. */
export interface SubagentCall {
  agent: Subagent;
  job: string;
  /** The delegate call's id: every event of the child carries it as `parent_call_id`. */
  callId: string;
  /** The parent's step and plan task the call belongs to. */
  step: number;
  taskId?: string;
  /** The parent's signal for this call: a stop of the parent stops the child. */
  signal: AbortSignal;
  /** Tools the child gets beside the agent's (its own delegate tool, when it may nest). */
  extraTools: (child: RunContext) => Tool[];
}

/** How a child run ended, with what it changed and spent. */
export interface SubagentOutcome {
  status: RunStatus;
  answer?: string;
  reason?: string;
  steps: number;
  /** The files its file tools changed (workspace-relative, as called). */
  files: string[];
  usage: TokenUsage;
  cost: number;
}

/**
 * Runs a subagent: the same step loop as a plan task, in a fresh conversation (the agent's
 * instructions and the job), with the agent's tools, its own step numbers and step limit, and
 * the parent's workspace, sandbox, approval gate, path locks, change records and budget. Its
 * events carry the delegate call's id and the agent's name; its tokens and cost count to the
 * parent's run (and so to the session).
 */
export async function runSubagent(parent: RunContext, call: SubagentCall): Promise<SubagentOutcome> {
  const { agent } = call;
  const tag: SubagentTag = {
    agent: agent.name,
    parentCallId: call.callId,
    depth: (parent.subagent?.depth ?? 0) + 1,
  };
  const allowed = agent.tools === undefined ? undefined : new Set(agent.tools);
  // The parent's delegate tool is not the child's: a child gets its own only within the depth limit.
  const tools = parent.tools.filter(
    (tool) => tool.name !== 'delegate' && (allowed === undefined || allowed.has(tool.name)),
  );
  const child: RunContext = {
    ...parent,
    model: agent.model ?? parent.model,
    tools,
    registry: new ToolRegistry(tools),
    emit: (payload) => parent.emit({ ...subagentFields(tag), ...payload }),
    files: new FileTracker(),
    maxSteps: agent.maxSteps ?? parent.maxSteps,
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    cost: 0,
    finalAnswerRefusals: 0,
    budget:
      parent.budget === undefined
        ? undefined
        : { ...parent.budget, spentBefore: parent.budget.spentBefore + parent.cost },
    subagent: tag,
  };
  child.registry = new ToolRegistry([...tools, ...call.extraTools(child)]);
  parent.emit({
    type: 'agent_update',
    update_type: 'subagent_started',
    step: call.step,
    parent_call_id: call.callId,
    agent: agent.name,
    job: call.job,
    max_steps: child.maxSteps,
    task_id: call.taskId,
  });
  const conversation: Conversation = {
    system: `${parent.systemPrompt('subagent')}\n\n${fillSection(SUBAGENT_TEXTS, 'agent-section', {
      agent: agent.name,
      instructions: agent.instructions.trim(),
    })}`,
    messages: [{ role: 'user', content: call.job }],
    goal: call.job,
    transient: true,
  };
  const files = new Set<string>();
  let outcome: LoopOutcome;
  try {
    outcome = await runStepLoop({
      run: child,
      conversation,
      signal: call.signal,
      decide: childStepDecider({ run: child, conversation, files }),
    });
  } catch (error) {
    outcome = {
      kind: 'interruption',
      status: 'failed',
      reason: error instanceof Error ? error.message : String(error),
    };
  }
  // What the child spent is the parent's (and the session's) too.
  parent.usage.inputTokens += child.usage.inputTokens;
  parent.usage.outputTokens += child.usage.outputTokens;
  parent.cost += child.cost;
  if (parent.budget && child.budget?.exceeded) parent.budget.exceeded = true;
  const ended = endOf(outcome);
  const result: SubagentOutcome = {
    ...ended,
    steps: child.steps,
    files: [...files],
    usage: child.usage,
    cost: child.cost,
  };
  parent.emit({
    type: 'agent_update',
    update_type: 'subagent_ended',
    step: call.step,
    parent_call_id: call.callId,
    agent: agent.name,
    status: result.status,
    ...(result.answer === undefined ? {} : { answer: result.answer }),
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    steps: result.steps,
    files: result.files,
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    ...(child.model.price === undefined ? {} : { cost: result.cost }),
    task_id: call.taskId,
  });
  return result;
}

function endOf(outcome: LoopOutcome): Pick<SubagentOutcome, 'status' | 'answer' | 'reason'> {
  if (outcome.kind === 'final') return { status: 'completed', answer: outcome.answer };
  if (outcome.kind === 'interruption') return { status: outcome.status, reason: outcome.reason };
  return { status: 'failed', reason: `The subagent's loop ended unexpectedly (${outcome.kind}).` };
}
