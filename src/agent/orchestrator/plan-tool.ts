import type { z } from 'zod';
import { planTasksSchema } from '../../plan/plan-schema.js';
import { validatePlan } from '../../plan/task-graph.js';
import { builtSchema } from '../../tools/built-schemas.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool, ToolResult } from '../../tools/types.js';
import type { RunContext } from '../state/run-state.js';
import { prewarmGoal } from './goal-isolation.js';
import { OnePlanAtATime } from './one-plan.js';

/** plan_actions' parameters, converted to JSON Schema by the build (tools/built-schemas.ts). */
const PLAN_ACTIONS_PARAMETERS = builtSchema('plan_actions', planTasksSchema);

/** What the model is told when it keeps track of an approved plan itself (no orchestrator). */
type PlanTasks = z.infer<typeof planTasksSchema>['tasks'];

export const MODEL_TRACKED_APPROVAL =
  'The user approved the plan. Work through its tasks yourself, in this conversation; when every task is done, reply without tool calls with a short summary. That reply ends the run.';

/**
 * `plan_actions`: the model proposes a plan; taskweave validates it (errors go back to the
 * model to fix), shows it to the user and waits for approval before anything runs.
 */
export function planActionsTool(run: RunContext): Tool {
  const once = new OnePlanAtATime();
  return defineTool({
    name: 'plan_actions',
    description:
      'Proposes a plan: a graph of tasks with dependencies. Once the user approves it, taskweave runs the tasks (independent ones in parallel) and gives you one at a time.',
    whenToUse:
      'The request has several distinct parts or steps (create a project AND write files AND build it; fix several separate problems). One objective per task, which may take many tool calls; tasks that do not depend on each other get no dependency.',
    whenNotToUse:
      'A direct request that one short sequence of tool calls settles (read a file and answer, one small edit, one command).',
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
      output: `The plan is invalid:\n${validation.errors.map((error) => `- ${error}`).join('\n')}\nFix these problems and call plan_actions again.`,
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
  if (run.control.stopRequested)
    return { output: 'The run was stopped before the plan was approved.', isError: false };
  if (decision === null) {
    run.control.markNeedsInput(
      `Approve the proposed plan ${planId} (${graph.tasks.length} ${graph.tasks.length === 1 ? 'task' : 'tasks'})?`,
    );
    return {
      output:
        'No one can approve the plan in this run (non-interactive, without --yes); the run ends here, waiting for approval.',
      isError: false,
    };
  }
  if (decision.decision === 'reject') {
    await run.records.decidePlan(run.runId, planId, 'rejected', decision.feedback);
    return {
      output: `The user rejected the plan. Their feedback: ${decision.feedback || '(none given)'}\nRevise the plan accordingly and call plan_actions again.`,
      isError: false,
    };
  }
  await run.records.decidePlan(run.runId, planId, 'approved');
  if (run.taskTracking === 'model') {
    // Nothing will run the plan's tasks: closed at once, so that no resume picks them up.
    await run.records.endPlan(planId, 'aborted');
    return { output: MODEL_TRACKED_APPROVAL, isError: false };
  }
  return {
    output: `The user approved the plan. taskweave now runs its ${graph.tasks.length} tasks and gives you one task at a time.`,
    isError: false,
    effect: { kind: 'plan_approved', planId, graph },
  };
}
