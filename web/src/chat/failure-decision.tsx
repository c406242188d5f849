import { useState } from 'react';
import type { FailureItem } from '../../../src/events/session-view.js';

type Decision = FailureItem['choices'][number];

const LABELS: Record<Decision, string> = {
  retry: 'Retry',
  resolve: 'Resolve in its worktree',
  skip: 'Skip',
  revise: 'Revise',
  abort: 'Abort',
};

/** A failed plan task: its reason, the tasks it blocks, and the user's choice. */
export function FailureDecision({
  failure,
  onDecide,
}: {
  failure: FailureItem;
  onDecide: (decision: Decision, feedback?: string) => void;
}) {
  const [feedback, setFeedback] = useState('');
  const [sent, setSent] = useState<Decision | undefined>();
  return (
    <section className="banner failure" role="alert" aria-label="A task failed">
      <div className="banner-title">
        Task <strong>{failure.title}</strong> <span className="badge badge-task">{failure.taskId}</span>{' '}
        failed
      </div>
      <p className="failure-reason">{failure.reason}</p>
      {failure.blocked.length > 0 && (
        <p>
          Blocked until you decide:{' '}
          {failure.blocked.map((task) => (
            <span key={task.id} className="badge badge-blocked" title={task.id}>
              {task.title}
            </span>
          ))}
        </p>
      )}
      <textarea
        aria-label="What to change (for Revise)"
        placeholder="What to change (for Revise, optional)"
        rows={2}
        value={feedback}
        onChange={(event) => setFeedback(event.target.value)}
      />
      <div className="button-row">
        {failure.choices.map((choice) => (
          <button
            key={choice}
            type="button"
            className={choice === 'abort' ? 'danger' : choice === 'retry' ? 'primary' : undefined}
            disabled={sent !== undefined}
            onClick={() => {
              setSent(choice);
              onDecide(choice, feedback.trim() || undefined);
            }}
          >
            {sent === choice ? `${LABELS[choice]}…` : LABELS[choice]}
          </button>
        ))}
      </div>
    </section>
  );
}
