import type { ServerEvent } from '../events/registry.js';
import {
  foldSessionEvents,
  type PlanView,
  type RunView,
  type TimelineItem,
  type TokenCount,
  type ToolCallView,
} from '../events/session-view.js';
import {
  EXPORT_FORMAT_NAME,
  EXPORT_VERSION,
  type ExportEntry,
  type ExportPlan,
  type ExportRun,
  type ExportToolCall,
  type ExportUsage,
  type SessionExport,
} from './export-schema.js';
import { type UsageCosts, usageCosts } from './usage-costs.js';

/** The session row an export starts from (the store's session, as the runtime gives it). */
export interface ExportedSession {
  id: string;
  title: string;
  goal: string;
  workspace: string;
  model: string;
  status: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * A session as one document (export-schema.ts): its logged events folded by the session view the
 * web UI draws from, so that an export says what the UI showed; the costs the usage events carry
 * are added per step, run and session.
 */
export function buildSessionExport(options: {
  session: ExportedSession;
  events: readonly ServerEvent[];
  exportedAt?: number;
}): SessionExport {
  const { session, events } = options;
  const view = foldSessionEvents(events);
  const costs = usageCosts(events);
  const titles = new Map(
    view.plans.flatMap((plan) => plan.tasks.map((task) => [task.id, task.title] as const)),
  );
  return {
    format: EXPORT_FORMAT_NAME,
    version: EXPORT_VERSION,
    exported_at: options.exportedAt ?? Date.now(),
    session: {
      id: session.id,
      title: session.title,
      goal: session.goal,
      workspace: session.workspace,
      model: session.model,
      status: session.status,
      created_at: session.createdAt,
      updated_at: session.updatedAt,
    },
    usage: usage(view.usage, costs.session),
    runs: view.runs.map((run) => exportRun(run, costs)),
    plans: view.plans.map((plan) => exportPlan(plan, lastOutcomes(view.items))),
    timeline: view.items.map((item) => exportEntry(item, { costs, titles })),
  };
}

function usage(tokens: TokenCount, cost: number | undefined): ExportUsage {
  return {
    input_tokens: tokens.input,
    output_tokens: tokens.output,
    ...(cost === undefined ? {} : { cost }),
  };
}

function exportRun(run: RunView, costs: UsageCosts): ExportRun {
  return {
    run_id: run.runId,
    goal: run.goal,
    status: run.status,
    model: run.model,
    loop: run.loop,
    mode: run.mode,
    max_steps: run.maxSteps,
    started_at: run.startedAt,
    ...(run.endedAt === undefined ? {} : { ended_at: run.endedAt }),
    usage: usage(run.usage, costs.runs.get(run.runId)),
  };
}

/**
 * The last thing said of each task's end (its summary or reason): a resumed plan's view knows
 * only that a task completed in an earlier run, not what it said then.
 */
function lastOutcomes(items: readonly TimelineItem[]): Map<string, { state: string; detail: string }> {
  const outcomes = new Map<string, { state: string; detail: string }>();
  for (const item of items)
    if (item.kind === 'task' && item.detail !== undefined)
      outcomes.set(item.taskId, { state: item.state, detail: item.detail });
  return outcomes;
}

function exportPlan(plan: PlanView, outcomes: Map<string, { state: string; detail: string }>): ExportPlan {
  return {
    plan_id: plan.planId,
    run_id: plan.runId,
    status: plan.status,
    ...(plan.feedback === undefined ? {} : { feedback: plan.feedback }),
    tasks: plan.tasks.map((task) => {
      const node = plan.nodes[task.id];
      const state = node?.state ?? 'pending';
      const said = outcomes.get(task.id);
      const summary =
        node?.summary ?? (state === 'completed' && said?.state === 'completed' ? said.detail : undefined);
      return {
        id: task.id,
        title: task.title,
        description: task.description,
        depends_on: task.depends_on,
        ...(task.check === undefined ? {} : { check: task.check }),
        state,
        ...(summary === undefined ? {} : { summary }),
        ...(node?.reason === undefined ? {} : { reason: node.reason }),
      };
    }),
  };
}

function exportEntry(
  item: TimelineItem,
  context: { costs: UsageCosts; titles: Map<string, string> },
): ExportEntry {
  const run_id = item.runId;
  switch (item.kind) {
    case 'goal':
      return {
        kind: 'goal',
        run_id,
        goal: item.goal,
        ...(item.images ? { images: item.images } : {}),
        at: item.ts,
      };
    case 'step':
      return {
        kind: 'step',
        run_id,
        step: item.step,
        ...(item.taskId === undefined
          ? {}
          : { task_id: item.taskId, task_title: context.titles.get(item.taskId) ?? item.taskId }),
        started_at: item.startedAt,
        text: item.text,
        ...(item.reason === undefined ? {} : { reasoning: item.reason }),
        ...(item.observe === undefined
          ? {}
          : {
              observation: {
                content: item.observe.content,
                ...(item.observe.shouldContinue === undefined
                  ? {}
                  : { should_continue: item.observe.shouldContinue }),
              },
            }),
        notes: item.notes,
        retries: item.retries.map((retry) => ({
          attempt: retry.attempt,
          delay_ms: retry.delayMs,
          error: retry.error,
        })),
        ...(item.refusedRemaining === undefined ? {} : { refused_remaining: item.refusedRemaining }),
        ...(item.rewound ? { rewound: true } : {}),
        usage: usage(item.usage, context.costs.steps.get(item.id)),
        tool_calls: item.tools.map(exportToolCall),
      };
    case 'question':
      return {
        kind: 'question',
        run_id,
        request_id: item.requestId,
        ...(item.taskId === undefined ? {} : { task_id: item.taskId }),
        question: item.question,
        ...(item.answer === undefined ? {} : { answer: item.answer }),
        timed_out: item.timedOut,
        asked_at: item.askedAt,
      };
    case 'approval':
      return {
        kind: 'approval',
        run_id,
        request_id: item.requestId,
        name: item.name,
        preview: item.preview,
        ...(item.outcome === undefined ? {} : { outcome: item.outcome }),
        ...(item.taskId === undefined ? {} : { task_id: item.taskId }),
      };
    case 'failure':
      return {
        kind: 'failure',
        run_id,
        task_id: item.taskId,
        title: item.title,
        reason: item.reason,
        blocked: item.blocked.map((task) => task.title),
      };
    case 'plan':
      return { kind: 'plan', run_id, plan_id: item.planId };
    case 'task':
      return {
        kind: 'task',
        run_id,
        task_id: item.taskId,
        title: item.title,
        state: item.state,
        ...(item.detail === undefined ? {} : { detail: item.detail }),
        at: item.ts,
      };
    case 'notice':
      return { kind: 'notice', run_id, tone: item.tone, text: item.text };
    case 'restore':
      return {
        kind: 'restore',
        run_id,
        restore_kind: item.restoreKind,
        mode: item.mode,
        files: item.files,
        conflicts: item.conflicts,
      };
    case 'completion':
      return {
        kind: 'completion',
        run_id,
        status: item.status,
        ...(item.finalAnswer === undefined ? {} : { final_answer: item.finalAnswer }),
        ...(item.reason === undefined ? {} : { reason: item.reason }),
        steps: item.steps,
        usage: usage(item.usage, context.costs.runs.get(run_id)),
      };
  }
}

function exportToolCall(call: ToolCallView): ExportToolCall {
  const output = call.output ?? (call.progress.length > 0 ? call.progress.join('\n') : undefined);
  const diff = call.name === 'edit_file' && call.status === 'ok' && output ? editDiff(output) : undefined;
  return {
    call_id: call.callId,
    name: call.name,
    args: call.args,
    status: call.status,
    ...(call.display === undefined ? {} : { display: call.display }),
    ...(call.durationMs === undefined ? {} : { duration_ms: call.durationMs }),
    ...(output === undefined ? {} : { output }),
    ...(diff === undefined ? {} : { diff }),
    ...(call.subagent === undefined ? {} : { subagent: exportSubagent(call.subagent) }),
  };
}

function exportSubagent(
  child: NonNullable<ToolCallView['subagent']>,
): NonNullable<ExportToolCall['subagent']> {
  return {
    agent: child.agent,
    job: child.job,
    status: child.status,
    steps: child.steps,
    ...(child.answer === undefined ? {} : { answer: child.answer }),
    ...(child.reason === undefined ? {} : { reason: child.reason }),
    files: child.files,
    input_tokens: child.usage.input,
    output_tokens: child.usage.output,
    tool_calls: child.view.items.flatMap((item) =>
      item.kind === 'step'
        ? item.tools.map((call) => ({
            step: item.step,
            name: call.name,
            args: call.args,
            status: call.status,
          }))
        : [],
    ),
  };
}

/** edit_file's result is a line of what it did, a blank line, then its `@@` snippets. */
function editDiff(output: string): string | undefined {
  const at = output.indexOf('\n\n@@ ');
  return at === -1 ? undefined : output.slice(at + 2);
}
