import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { blankLinesLabel, commandSegments, gapLabel } from '../../../src/events/command-segments.js';
import type { ApprovalItem } from '../../../src/events/session-view.js';

type Decision = 'allow' | 'deny' | 'always';

/** The colour of a line of a unified diff. */
function previewLineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return undefined;
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return undefined;
}

/**
 * A command shown whole, wrapped: its operators marked, and a long run of blanks inside a line or
 * of blank lines shown as its count, so nothing after it can sit out of sight. When it is still
 * taller than its box, the card says so plainly, above the buttons.
 */
function CommandPreview({ preview, operators }: { preview: string; operators?: [number, number][] }) {
  const box = useRef<HTMLPreElement>(null);
  const overflowing = useOverflow(box);
  return (
    <>
      <pre ref={box} className="approval-preview approval-command" title="the command">
        {commandSegments(preview, operators).map((segment, index) =>
          segment.kind === 'operator' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces of a fixed text
            <mark key={index} className="approval-operator">
              {segment.text}
            </mark>
          ) : segment.kind === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces of a fixed text
            <span key={index} className="approval-gap" title={`${segment.length} blanks`}>
              {gapLabel(segment.length)}
            </span>
          ) : segment.kind === 'blank-lines' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces of a fixed text
            <span key={index}>
              {'\n'}
              <span
                className="approval-gap"
                title={`${segment.breaks} line breaks, blank lines between them`}
              >
                {blankLinesLabel(segment.breaks)}
              </span>
              {'\n'}
            </span>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces of a fixed text
            <span key={index}>{segment.text}</span>
          ),
        )}
      </pre>
      {overflowing && (
        <p className="approval-overflow" role="note">
          The command is longer than this box shows: scroll it to read all of it before you decide.
        </p>
      )}
    </>
  );
}

/** Whether an element's content is taller than the element (it scrolls), followed as it resizes. */
function useOverflow(element: { current: HTMLElement | null }): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    const measure = () => setOverflowing(target.scrollHeight > target.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return overflowing;
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
  const allow = useRef<HTMLButtonElement>(null);
  // The request takes the focus (as a question does): Enter answers it, not the message field.
  useEffect(() => {
    allow.current?.focus();
  }, []);
  const decide = (decision: Decision) => {
    setSent(decision);
    onDecide(decision, decision === 'deny' ? reason.trim() || undefined : undefined);
  };
  const isCommand = approval.name === 'run_command';
  return (
    <section className="banner approval" role="alert" aria-label="A tool call waits for your approval">
      <div className="banner-title">
        {approval.check
          ? "Run this task's check?"
          : isCommand
            ? 'Run this command?'
            : `Allow ${approval.name}?`}{' '}
        {approval.taskId && <span className="badge badge-task">{approval.taskId}</span>}
      </div>
      {approval.check && (
        <p className="approval-check" role="note">
          {checkNote(approval.taskId)}
        </p>
      )}
      {isCommand ? (
        <CommandPreview preview={approval.preview} operators={approval.operators} />
      ) : (
        <pre className="approval-preview" title="the change">
          {approval.preview.split('\n').map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text
            <div key={index} className={previewLineClass(line)}>
              {line === '' ? ' ' : line}
            </div>
          ))}
        </pre>
      )}
      <textarea
        aria-label="Why not (for Deny)"
        placeholder="Why not (for Deny, optional: the model reads it)"
        rows={2}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="button-row">
        <button
          ref={allow}
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
          aria-describedby={`always-${approval.requestId}`}
        >
          {`${approval.always ?? 'Always'}${sent === 'always' ? '…' : ''}`}
        </button>
        <button type="button" className="danger" disabled={sent !== undefined} onClick={() => decide('deny')}>
          {sent === 'deny' ? 'Deny…' : 'Deny'}
        </button>
      </div>
      <p className="muted small always-hint" id={`always-${approval.requestId}`}>
        {alwaysHint(approval)}
      </p>
    </section>
  );
}

/** Where a check asked for approval comes from: the plan the user approved, not the model's choice now. */
export function checkNote(taskId: string | undefined): string {
  const task = taskId === undefined ? 'the task' : `task ${taskId}`;
  return `This is the check of ${task}, as in the plan you approved: it tells whether the task is done. The model did not choose it now.`;
}

/** What "always" allows, said in full: the core's button label names it, this says for how long. */
export function alwaysHint(approval: Pick<ApprovalItem, 'always' | 'name'>): string {
  const label = approval.always ?? '';
  const prefix = /^Always allow `(.+) …`$/.exec(label);
  if (prefix)
    return `Always: every command that starts with \`${prefix[1]}\` runs unasked until this session ends.`;
  if (label === 'Always allow file changes')
    return 'Always: every file change (writes and edits) runs unasked until this session ends.';
  if (label === 'Always: this exact command')
    return 'Always: this exact command line runs unasked if it comes again in this session; any other asks.';
  const tool = /^Always allow (.+)$/.exec(label)?.[1] ?? approval.name;
  return `Always: every ${tool} call runs unasked until this session ends.`;
}
