import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { EventBus } from '../events/bus.js';
import type { RunStatus } from '../events/registry.js';
import type { TokenUsage } from '../model/call-model.js';
import type { ResolvedModel } from '../model/types.js';
import { buildSystemPrompt } from '../prompts/system-prompt.js';
import { FileTracker } from '../tools/file-tracker.js';
import { coreTools, ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import type { RunControl } from './control.js';
import type { Emit } from './emit.js';
import { RecoveryTracker } from './recovery.js';
import type { RunContext } from './run-state.js';
import { runStepLoop } from './step-loop.js';

/** The step budget of a run when none is given. */
export const DEFAULT_MAX_STEPS = 50;

export interface RunAgentOptions {
  goal: string;
  model: ResolvedModel;
  workspace: Workspace;
  bus: EventBus;
  control: RunControl;
  maxSteps?: number;
  tools?: Tool[];
  runId?: string;
  /** Earlier messages of the conversation (when a session is continued). */
  history?: ModelMessage[];
}

/** How a run ended. */
export interface RunResult {
  runId: string;
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  steps: number;
  usage: TokenUsage;
  /** The whole conversation, history included, for continuing the session later. */
  messages: ModelMessage[];
}

/** Runs one goal to its end with the tool-first loop, announcing everything on the bus. */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const runId = options.runId ?? randomUUID();
  const emit: Emit = (payload) => options.bus.emit(runId, payload);
  const tools = options.tools ?? coreTools;
  const run: RunContext = {
    runId,
    model: options.model,
    registry: new ToolRegistry(tools),
    workspace: options.workspace,
    files: new FileTracker(),
    control: options.control,
    emit,
    recovery: new RecoveryTracker(),
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  observeQuestions(run);
  emit({
    type: 'agent_update',
    update_type: 'agent_start',
    max_steps: run.maxSteps,
    mode: 'simple',
    loop: 'react',
    model: options.model.id,
    goal: options.goal,
  });
  const conversation = {
    system: buildSystemPrompt({ workspace: options.workspace.root, tools }),
    messages: [...(options.history ?? []), { role: 'user' as const, content: options.goal }],
  };
  const outcome = await runStepLoop({ run, conversation });
  const result: RunResult =
    outcome.kind === 'final'
      ? {
          runId,
          status: 'completed',
          finalAnswer: outcome.answer,
          steps: run.steps,
          usage: run.usage,
          messages: [],
        }
      : {
          runId,
          status: outcome.status,
          reason: outcome.reason,
          steps: run.steps,
          usage: run.usage,
          messages: [],
        };
  result.messages = conversation.messages;
  emit({
    type: 'agent_update',
    update_type: 'agent_completion',
    steps: result.steps,
    status: result.status,
    final_answer: result.finalAnswer,
    reason: result.reason,
    input_tokens: run.usage.inputTokens,
    output_tokens: run.usage.outputTokens,
  });
  emit({ type: 'response_complete', status: result.status, final_answer: result.finalAnswer });
  return result;
}

function observeQuestions(run: RunContext): void {
  run.control.observer = {
    asked: (request) =>
      run.emit({
        type: 'agent_update',
        update_type: 'agent_request_input',
        step: run.steps,
        request_id: request.requestId,
        question: request.question,
      }),
    answered: (request, content) =>
      run.emit({
        type: 'agent_update',
        update_type: 'agent_user_input',
        request_id: request.requestId,
        content,
      }),
    timedOut: (request) =>
      run.emit({
        type: 'agent_update',
        update_type: 'agent_request_input_timeout',
        request_id: request.requestId,
      }),
  };
}
