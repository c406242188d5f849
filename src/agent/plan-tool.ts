import { randomUUID } from 'node:crypto';
import { planTasksSchema, validatePlan } from '../plan/task-graph.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/types.js';
import type { PlanApprover } from './control.js';
import type { RunContext } from './run-state.js';

/**
 * `plan_actions`: the model proposes a plan; taskweave validates it (errors go back to the
 * model to fix), shows it to the user and waits for approval before anything runs.
 */
export function planActionsTool(run: RunContext): Tool {
  return defineTool({
    name: 'plan_actions',
    description:
      'Proposes a plan for a multi-step request: a graph of tasks with dependencies. The user approves it, then taskweave runs the tasks (independent ones in parallel) and gives you one task at a time.',
    whenToUse:
      'When the request has several distinct parts or steps (create a project AND write files AND build it; fix several separate problems). Each task is one objective that may take many tool calls. Give tasks that do not depend on each other no dependency so they can run in parallel.',
    whenNotToUse:
      'Not for a direct request that one short sequence of tool calls settles (read a file and answer, one small edit, one command).',
    readOnly: true,
    parameters: planTasksSchema,
    async execute({ tasks }) {
      const validation = validatePlan(tasks);
      if (!validation.ok) {
        return {
          output: `The plan is invalid:\n${validation.errors.map((error) => `- ${error}`).join('\n')}\nFix these problems and call plan_actions again.`,
          isError: true,
        };
      }
      const planId = run.records?.proposePlan(run.runId, validation.graph) ?? randomUUID().slice(0, 8);
      const graph = validation.graph;
      run.emit({
        type: 'agent_update',
        update_type: 'plan_proposed',
        plan_id: planId,
        tasks: graph.tasks.map(({ id, title, description, depends_on }) => ({
          id,
          title,
          description,
          depends_on,
        })),
      });
      let decision: Awaited<ReturnType<PlanApprover>>;
      try {
        decision = run.control.planApprover
          ? await run.control.planApprover({ planId, graph }, run.control.signal)
          : null;
      } catch (error) {
        // Ctrl-C at the approval prompt: the run stops at this step's end.
        if (run.control.stopRequested)
          return { output: 'The run was stopped before the plan was approved.', isError: false };
        throw error;
      }
      if (decision === null) {
        run.control.markNeedsInput(`Approve the proposed plan ${planId} (${graph.tasks.length} tasks)?`);
        return {
          output:
            'No one can approve the plan in this run (non-interactive, without --yes); the run ends here, waiting for approval.',
          isError: false,
        };
      }
      if (decision.decision === 'reject') {
        run.records?.decidePlan(planId, 'rejected', decision.feedback);
        run.emit({
          type: 'agent_update',
          update_type: 'plan_rejected',
          plan_id: planId,
          feedback: decision.feedback,
        });
        return {
          output: `The user rejected the plan. Their feedback: ${decision.feedback || '(none given)'}\nRevise the plan accordingly and call plan_actions again.`,
          isError: false,
        };
      }
      run.records?.decidePlan(planId, 'approved');
      run.emit({ type: 'agent_update', update_type: 'plan_approved', plan_id: planId });
      return {
        output: `The user approved the plan. taskweave now runs its ${graph.tasks.length} tasks and gives you one task at a time.`,
        isError: false,
        effect: { kind: 'plan_approved', planId, graph },
      };
    },
  });
}
