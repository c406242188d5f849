import type { z } from 'zod';
import { planTasksSchema } from '../../plan/plan-schema.js';
import { validatePlan } from '../../plan/task-graph.js';
import { fillSection } from '../../prompts/template.js';
import { toolTexts } from '../../prompts/tool-texts.js';
import { builtSchema } from '../../tools/built-schemas.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool, ToolResult } from '../../tools/types.js';
import type { RunContext } from '../state/run-state.js';
import { prewarmGoal } from './goal-isolation.js';
import { OnePlanAtATime } from './one-plan.js';

/** plan_actions' parameters, converted to JSON Schema by the build (tools/built-schemas.ts). */
const PLAN_ACTIONS_PARAMETERS = builtSchema('plan_actions', planTasksSchema);

type PlanTasks = z.infer<typeof planTasksSchema>['tasks'];

/** The template of plan_actions' model-facing texts (src/prompts/plan-tool.md). */
const TEXTS = 'plan-tool';

/** What the model is told when it keeps track of an approved plan itself (no orchestrator). */
export function modelTrackedApproval(): string {
  return fillSection(TEXTS, 'approved-model-tracked');
}

/**
 * `plan_actions`: the model proposes a plan; taskweave validates it (errors go back to the
 * model to fix), shows it to the user and waits for approval before anything runs.
 */
export function planActionsTool(run: RunContext): Tool {
  const once = new OnePlanAtATime();
  return defineTool({
    name: 'plan_actions',
    ...toolTexts(TEXTS, 'plan-actions'),
    readOnly: true,
    parameters: PLAN_ACTIONS_PARAMETERS,
    async execute(args, ctx) {
      const refusal = once.enter(ctx.callId);
      if (refusal) return { output: refusal, isError: true };
      try {
        const result = await proposeAndDecide(run, args.tasks);
        if (result.effect) once.approved();
        return result;
      } finally {
        once.leave(ctx.callId);
      }
    },
  });
}

async function proposeAndDecide(run: RunContext, tasks: PlanTasks): Promise<ToolResult> {
  const validation = validatePlan(tasks);
  if (!validation.ok) {
    return {
      output: fillSection(TEXTS, 'invalid', {
        errors: validation.errors.map((error) => `- ${error}`).join('\n'),
      }),
      isError: true,
    };
  }
  const graph = validation.graph;
  // Stored, then announced: the plan_proposed event is the request for approval, and its
  // plan id is what the answer names; the request waits before the event goes out.
  let verdict: ReturnType<typeof run.control.approvePlan> = Promise.resolve(null);
  const planId = await run.records.proposePlan(run.runId, graph, (id) => {
    verdict = run.control.approvePlan(id);
  });
  // The goal's first worktree is checked out while the user reads the plan.
  const warm = prewarmGoal(run, { planId, graph });
  const decision = await verdict;
  if (decision?.decision !== 'approve') void warm?.discard().catch(() => {});
  // Stopped at the approval (Ctrl-C at the prompt): the plan stays proposed and the run ends
  // waiting for it, as a run nobody can approve does, so that `resume` asks again or runs it.
  if (run.control.stopRequested && decision !== null)
    return { output: fillSection(TEXTS, 'stopped'), isError: false };
  if (decision === null) {
    run.control.markNeedsInput(
      `Approve the proposed plan ${planId} (${graph.tasks.length} ${graph.tasks.length === 1 ? 'task' : 'tasks'})?`,
    );
    return {
      output: fillSection(TEXTS, 'no-approver'),
      isError: false,
    };
  }
  if (decision.decision === 'reject') {
    await run.records.decidePlan(run.runId, planId, 'rejected', decision.feedback);
    return {
      output: fillSection(TEXTS, 'rejected', { feedback: decision.feedback || '(none given)' }),
      isError: false,
    };
  }
  await run.records.decidePlan(run.runId, planId, 'approved');
  if (run.taskTracking === 'model') {
    // Nothing will run the plan's tasks: closed at once, so that no resume picks them up.
    await run.records.endPlan(planId, 'aborted');
    return { output: modelTrackedApproval(), isError: false };
  }
  return {
    output: fillSection(TEXTS, 'approved', { count: String(graph.tasks.length) }),
    isError: false,
    effect: { kind: 'plan_approved', planId, graph },
  };
}
