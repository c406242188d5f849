import type { FastifyInstance } from 'fastify';
import type { ApiApplyOutcome, ApiGoalDiff } from '../../events/api.js';
import { applyGoal, GoalBranchError, goalDiff } from '../../runtime/goal-work.js';
import type { Runtime } from '../../runtime/index.js';
import { sendError } from '../http-errors.js';

type ById = { Params: { id: string } };

/** A goal run in git worktrees: its diff, and Apply (merged into the checkout's current branch). */
export function goalRoutes(app: FastifyInstance, runtime: Runtime): void {
  app.get<ById>('/api/goals/:id/diff', async (request, reply): Promise<ApiGoalDiff | undefined> => {
    try {
      const diff = await goalDiff(runtime.workspace.root, request.params.id);
      return { goal: diff.goal, branch: diff.branch, base: diff.base, stat: diff.stat, patch: diff.patch };
    } catch (error) {
      if (!(error instanceof GoalBranchError)) throw error;
      sendError(reply, 404, 'unknown_goal', error.message);
      return undefined;
    }
  });

  app.post<ById>('/api/goals/:id/apply', async (request, reply): Promise<ApiApplyOutcome | undefined> => {
    try {
      return await applyGoal(runtime.workspace.root, request.params.id);
    } catch (error) {
      if (!(error instanceof GoalBranchError)) throw error;
      sendError(reply, 404, 'unknown_goal', error.message);
      return undefined;
    }
  });
}
