import { useState } from 'react';
import type { ApiCheckpoint } from '../../../src/events/api.js';

const MARK = { added: '+', modified: '~', deleted: '−' } as const;
const VERB = { added: 'deleted again', modified: 'put back as it was', deleted: 'brought back' } as const;

/**
 * An Undo button that first shows what it will do (each file, and what becomes of it) and asks
 * to confirm; with `conversation`, a choice to rewind the conversation as well.
 */
export function UndoControl({
  label,
  files,
  note,
  conversation,
  disabled,
  onConfirm,
}: {
  label: string;
  files: ApiCheckpoint['files'];
  note?: string;
  /** Offer "also rewind the conversation" (a step of the top-level conversation). */
  conversation?: boolean;
  disabled?: boolean;
  onConfirm: (withConversation: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const [withConversation, setWithConversation] = useState(false);
  const [sent, setSent] = useState(false);
  if (!open) {
    return (
      <button
        type="button"
        className="undo-button"
        disabled={disabled}
        title={disabled ? 'Stop the run first' : undefined}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <fieldset className="undo-confirm" aria-label={`${label}: confirm`}>
      <p className="small">
        {files.length === 1
          ? 'This file goes back to how it was before:'
          : `These ${files.length} files go back to how they were before:`}
      </p>
      <ul className="undo-files">
        {files.map((file) => (
          <li key={file.path} className={`file-${file.action}`}>
            <code>
              {MARK[file.action]} {file.path}
            </code>{' '}
            <span className="muted small">{VERB[file.action]}</span>
          </li>
        ))}
      </ul>
      {note && <p className="muted small">{note}</p>}
      <p className="muted small">
        A file changed since (by you or a later step) is left as it is and listed.
      </p>
      {conversation && (
        <label className="small">
          <input
            type="checkbox"
            checked={withConversation}
            onChange={(event) => setWithConversation(event.target.checked)}
          />{' '}
          Also rewind the conversation to before this step
        </label>
      )}
      <div className="button-row">
        <button
          type="button"
          className="primary"
          disabled={sent}
          onClick={() => {
            setSent(true);
            onConfirm(withConversation);
          }}
        >
          {sent ? 'Undoing…' : 'Undo these changes'}
        </button>
        <button type="button" disabled={sent} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
