import { useState } from 'react';
import type { ApprovalItem } from '../../../src/events/session-view.js';

type Decision = 'allow' | 'deny' | 'always';

/** The colour of a line of a unified diff. */
function previewLineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return undefined;
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return undefined;
}

/** A tool call waiting for approval: the command or the diff, and Allow / Deny (with a reason) / Always. */
export function ApprovalRequest({
  approval,
  onDecide,
}: {
  approval: ApprovalItem;
  onDecide: (decision: Decision, reason?: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [sent, setSent] = useState<Decision | undefined>();
  const decide = (decision: Decision) => {
    setSent(decision);
    onDecide(decision, decision === 'deny' ? reason.trim() || undefined : undefined);
  };
  const isCommand = approval.name === 'run_command';
  return (
    <section className="banner approval" role="alert" aria-label="A tool call waits for your approval">
      <div className="banner-title">
        {isCommand ? 'Run this command?' : `Allow ${approval.name}?`}{' '}
        {approval.taskId && <span className="badge badge-task">{approval.taskId}</span>}
      </div>
      <pre className="approval-preview" title={isCommand ? 'the command' : 'the change'}>
        {approval.preview.split('\n').map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text
          <div key={index} className={isCommand ? undefined : previewLineClass(line)}>
            {line === '' ? ' ' : line}
          </div>
        ))}
      </pre>
      <textarea
        aria-label="Why not (for Deny)"
        placeholder="Why not (for Deny, optional: the model reads it)"
        rows={1}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="button-row">
        <button
          type="button"
          className="primary"
          disabled={sent !== undefined}
          onClick={() => decide('allow')}
        >
          {sent === 'allow' ? 'Allow…' : 'Allow'}
        </button>
        <button
          type="button"
          disabled={sent !== undefined}
          onClick={() => decide('always')}
          title={
            isCommand
              ? 'Allow this command for the rest of the session'
              : `Allow ${approval.name} for the rest of the session`
          }
        >
          {sent === 'always' ? 'Always…' : 'Always'}
        </button>
        <button type="button" className="danger" disabled={sent !== undefined} onClick={() => decide('deny')}>
          {sent === 'deny' ? 'Deny…' : 'Deny'}
        </button>
      </div>
    </section>
  );
}
