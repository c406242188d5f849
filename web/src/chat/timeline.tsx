import type { SessionView, TimelineItem } from '../../../src/events/session-view.js';
import { RestoreCard } from '../checkpoints/restore-card.js';
import { GoalDiff } from '../goal-diff/goal-diff.js';
import { approvalText } from './approval-text.js';
import { countTasks, formatUsage } from './format.js';
import { Markdown } from './markdown.js';
import { MessageImages } from './message-images.js';
import { shownItems } from './shown-items.js';
import { StepCard } from './step-card.js';

const STATUS_TEXT: Record<string, string> = {
  completed: 'Completed',
  stopped: 'Stopped',
  max_steps: 'Step limit reached',
  failed: 'Failed',
  needs_input: 'Needs input',
};

/** The conversation: goals, step cards, questions, plan and task lines, and how each run ended. */
export function Timeline({ view, items: given }: { view: SessionView; items: readonly TimelineItem[] }) {
  const items = shownItems(view, given);
  const lastStep = items.findLast((item) => item.kind === 'step');
  const lastRestore = items.findLast((item) => item.kind === 'restore');
  const running = new Set(view.runs.filter((run) => run.status === 'running').map((run) => run.runId));
  const titles = new Map(
    view.plans.flatMap((plan) => plan.tasks.map((task) => [task.id, task.title] as const)),
  );
  return (
    <ol className="timeline">
      {items.map((item) => (
        <li key={item.id} className={`item item-${item.kind}`}>
          <Item
            item={item}
            live={item === lastStep && running.has(item.runId)}
            latest={item === lastRestore}
            runGoesOn={running.has(item.runId)}
            taskTitle={'taskId' in item && item.taskId ? titles.get(item.taskId) : undefined}
            planTasks={
              item.kind === 'plan' ? view.plans.find((plan) => plan.planId === item.planId) : undefined
            }
          />
        </li>
      ))}
    </ol>
  );
}

function Item({
  item,
  live,
  latest,
  runGoesOn,
  taskTitle,
  planTasks,
}: {
  item: TimelineItem;
  live: boolean;
  /** The last restore shown (only it offers Redo). */
  latest: boolean;
  runGoesOn: boolean;
  taskTitle?: string;
  planTasks?: SessionView['plans'][number];
}) {
  switch (item.kind) {
    case 'goal':
      return (
        <>
          {item.images && item.images.length > 0 && <MessageImages images={item.images} />}
          <p className="goal">{item.goal}</p>
        </>
      );
    case 'step':
      return <StepCard step={item} live={live} runGoesOn={runGoesOn} taskTitle={taskTitle} />;
    case 'question':
      return (
        <div className="card question-item">
          <strong>Question:</strong> <Markdown text={item.question} />
          {item.answer !== undefined && <p>Your answer: {item.answer}</p>}
          {item.timedOut && <p className="warning">No answer in time; the agent went on without one.</p>}
        </div>
      );
    case 'approval':
      return <div className="card approval-item">{approvalText(item)}</div>;
    case 'failure':
      return (
        <div className="card failure-item">
          Task <strong>{item.title}</strong> failed: {item.reason}
          {item.settled ? '' : ' — waiting for your decision.'}
        </div>
      );
    case 'plan':
      return (
        <div className="plan-item">
          Plan proposed: {countTasks(planTasks?.tasks.length ?? 0)}
          {planTasks?.status === 'rejected'
            ? ` — rejected${planTasks.feedback ? `: “${planTasks.feedback}”` : ''}`
            : ''}
        </div>
      );
    case 'task':
      return (
        <div className={`task-line state-${item.state}`}>
          <span className="badge badge-task">{item.taskId}</span> {item.title} — {taskVerb(item.state)}
          {item.detail ? `: ${item.detail}` : ''}
        </div>
      );
    case 'notice':
      return <div className={`notice ${item.tone}`}>{item.text}</div>;
    case 'restore':
      return <RestoreCard item={item} redoable={latest} />;
    case 'completion': {
      // A reason that names the status ("Stopped by the user.") is the title: the stop told once.
      const status = STATUS_TEXT[item.status] ?? item.status;
      const titled = item.reason?.startsWith(status) && !item.finalAnswer;
      return (
        <section className={`card completion status-${item.status}`} aria-label="Run result">
          <header className="card-header">
            <strong>{titled ? item.reason!.replace(/\.$/, '') : status}</strong>
            <span className="muted small">
              {item.steps} {item.steps === 1 ? 'step' : 'steps'} · {formatUsage(item.usage)}
            </span>
          </header>
          {item.finalAnswer && <Markdown text={item.finalAnswer} />}
          {item.reason && !item.finalAnswer && !titled && <p>{item.reason}</p>}
          {item.goalWork ? (
            <>
              <div
                className={`notice goal-work ${item.goalWork.outcome === 'applied' ? 'info' : 'warning'}`}
                role="status"
              >
                {item.goalWork.text}
              </div>
              <GoalDiff goalId={item.goalWork.goalId} applied={item.goalWork.outcome === 'applied'} />
            </>
          ) : null}
        </section>
      );
    }
  }
}

function taskVerb(state: string): string {
  return state === 'in_progress' ? 'started' : state;
}
