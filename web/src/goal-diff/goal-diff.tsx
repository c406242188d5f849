import { useState } from 'react';
import type { ApiApplyOutcome, ApiGoalDiff } from '../../../src/events/api.js';
import { api } from '../connection/api.js';

/** The class of one line of a patch: added, removed, a hunk header, or context. */
function lineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  if (line.startsWith('@@') || line.startsWith('diff --git')) return 'diff-hunk';
  return undefined;
}

/** What Apply did, in words. */
function applyText(outcome: ApiApplyOutcome): string {
  switch (outcome.kind) {
    case 'applied':
      return `Applied to ${outcome.branch} (${outcome.commit.slice(0, 7)}).`;
    case 'already-applied':
      return `Already in ${outcome.branch}.`;
    case 'conflict':
      return `Not applied: your branch and the goal both changed ${outcome.files.join(', ')}. Nothing was changed.`;
    case 'refused':
      return `Not applied: git refused, nothing was changed. ${outcome.message}`;
  }
}

/**
 * A goal run in git worktrees: its diff (stat and patch, loaded when asked, again after each
 * load so that merged tasks show) and Apply, which merges the goal branch into the checkout's
 * current branch (the server refuses to overwrite anything); no Apply once the goal's change
 * landed in the working tree (`applied`).
 */
export function GoalDiff({ goalId, applied: landed = false }: { goalId: string; applied?: boolean }) {
  const [diff, setDiff] = useState<ApiGoalDiff | undefined>();
  const [applied, setApplied] = useState<ApiApplyOutcome | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const load = () => {
    setBusy(true);
    api
      .goalDiff(goalId)
      .then((answer) => {
        setDiff(answer);
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message))
      .finally(() => setBusy(false));
  };
  const apply = () => {
    setBusy(true);
    api
      .applyGoal(goalId)
      .then(setApplied)
      .catch((failure: Error) => setError(failure.message))
      .finally(() => setBusy(false));
  };
  return (
    <section className="card goal-diff" aria-label={`Goal ${goalId}`}>
      <div className="goal-diff-actions">
        <button type="button" onClick={load} disabled={busy}>
          {diff ? 'Refresh diff' : 'Show diff'}
        </button>
        {landed ? null : (
          <button type="button" onClick={apply} disabled={busy || diff === undefined || diff.stat === ''}>
            Apply
          </button>
        )}
        {diff ? <span className="muted small">{diff.branch}</span> : null}
      </div>
      {error ? <div className="notice error">{error}</div> : null}
      {applied ? (
        <div
          className={`notice ${applied.kind === 'applied' || applied.kind === 'already-applied' ? 'info' : 'warning'}`}
        >
          {applyText(applied)}
        </div>
      ) : null}
      {diff ? (
        diff.stat === '' ? (
          <div className="muted small">No changes yet.</div>
        ) : (
          <section className="output" aria-label="Goal diff">
            <pre>{diff.stat}</pre>
            <pre>
              {diff.patch.split('\n').map((line, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text
                <span key={index} className={lineClass(line)}>
                  {line}
                  {'\n'}
                </span>
              ))}
            </pre>
          </section>
        )
      ) : null}
    </section>
  );
}
