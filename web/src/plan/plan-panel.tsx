import { lazy, Suspense, useState } from 'react';
import type { PlanView } from '../../../src/events/session-view.js';
import { useNarrow } from '../app/use-narrow.js';
import { countTasks } from '../chat/format.js';
import { filesOf, useCheckpointsState } from '../checkpoints/checkpoints-context.js';
import { UndoControl } from '../checkpoints/undo-control.js';

/** The graph (React Flow and elkjs) is loaded only when a plan is shown. */
const PlanGraph = lazy(() => import('./plan-graph.js'));

const STATUS_TEXT: Record<PlanView['status'], string> = {
  proposed: 'waiting for your approval',
  approved: 'approved, running',
  rejected: 'rejected',
  resumed: 'resumed, running',
  ended: 'ended',
};

/**
 * The latest plan: its graph, and Approve / Reject with feedback while it waits for a decision.
 * On a phone the graph folds away (a tap shows it) while something in the conversation waits for
 * the user, so that the conversation and the decision keep the screen.
 */
export function PlanPanel({
  plan,
  awaitingDecision,
  selectedTask,
  onSelectTask,
  onDecide,
  conversationWaits,
}: {
  plan: PlanView;
  awaitingDecision: boolean;
  /** A question, an approval or a failure decision waits in the conversation. */
  conversationWaits: boolean;
  selectedTask: string | undefined;
  onSelectTask: (taskId: string | undefined) => void;
  onDecide: (decision: 'approve' | 'reject', feedback?: string) => void;
}) {
  const [feedback, setFeedback] = useState('');
  const [sent, setSent] = useState<string | undefined>();
  const counts = countStates(plan);
  const narrow = useNarrow();
  const [chosen, setChosen] = useState<boolean>();
  const graphShown = !narrow || awaitingDecision || (chosen ?? !conversationWaits);
  return (
    <section className={`plan-panel${graphShown ? '' : ' folded'}`} aria-label="Plan">
      <header className="plan-header">
        {narrow && !awaitingDecision && (
          <button
            type="button"
            className="plan-toggle"
            aria-expanded={graphShown}
            onClick={() => setChosen(!graphShown)}
          >
            {graphShown ? 'Hide the plan' : 'Show the plan'}
          </button>
        )}
        <h2>
          Plan{' '}
          <span className="muted small">
            {countTasks(plan.tasks.length)} · {STATUS_TEXT[plan.status]}
          </span>
        </h2>
        <p className="muted small">
          {counts}
          {plan.criticalPath.length > 1 && ` · critical path: ${plan.criticalPath.join(' → ')}`}
        </p>
        {selectedTask && (
          <button type="button" className="link-button" onClick={() => onSelectTask(undefined)}>
            Showing task {selectedTask} only — show all
          </button>
        )}
        {selectedTask && <TaskUndo taskId={selectedTask} />}
      </header>
      {graphShown && (
        <div className="graph">
          <Suspense fallback={<div className="graph-placeholder muted">Loading the graph…</div>}>
            <PlanGraph
              plan={plan}
              selectedTask={selectedTask}
              onSelectTask={(id) => onSelectTask(id === selectedTask ? undefined : id)}
            />
          </Suspense>
        </div>
      )}
      {awaitingDecision && (
        <form
          className="plan-decision"
          onSubmit={(event) => {
            event.preventDefault();
            setSent('approve');
            onDecide('approve');
          }}
        >
          <textarea
            aria-label="Feedback on the plan"
            placeholder="What to change (to reject with feedback)"
            rows={2}
            value={feedback}
            onChange={(event) => setFeedback(event.target.value)}
          />
          <div className="button-row">
            <button type="submit" className="primary" disabled={sent !== undefined}>
              Approve plan
            </button>
            <button
              type="button"
              disabled={sent !== undefined}
              onClick={() => {
                setSent('reject');
                onDecide('reject', feedback.trim() || undefined);
              }}
            >
              Reject{feedback.trim() ? ' with feedback' : ''}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function countStates(plan: PlanView): string {
  const counts = new Map<string, number>();
  for (const node of Object.values(plan.nodes)) counts.set(node.state, (counts.get(node.state) ?? 0) + 1);
  return [...counts]
    .map(([state, count]) => `${count} ${state === 'in_progress' ? 'running' : state}`)
    .join(' · ');
}

/** Undo on a plan task (the node selected): its changes only; other tasks' files are left. */
function TaskUndo({ taskId }: { taskId: string }) {
  const state = useCheckpointsState();
  if (!state) return null;
  const own = state.checkpoints.filter(
    (checkpoint) => checkpoint.task_id === taskId && checkpoint.undone !== 'yes',
  );
  if (own.length === 0) return null;
  return (
    <UndoControl
      key={own.map((checkpoint) => checkpoint.number).join(',')}
      label={`Undo task ${taskId}`}
      files={filesOf(own)}
      note="Only this task's changes go back; a file a later task changed since is left and listed. The task's own conversation stays."
      disabled={state.running}
      onConfirm={() => state.restore('rewind', { taskId, mode: 'code' })}
    />
  );
}
