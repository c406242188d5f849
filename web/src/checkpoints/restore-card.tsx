import type { RestoreItem } from '../../../src/events/session-view.js';
import { useCheckpointsState } from './checkpoints-context.js';

const TITLE = { undo: 'Undone', rewind: 'Rewound', redo: 'Redone' } as const;
const ACTION = { created: '+', written: '~', deleted: '−', unchanged: '=' } as const;

/** What an undo, rewind or redo did: the files, the conflicts left alone, the conversation; Redo on the last. */
export function RestoreCard({ item, redoable }: { item: RestoreItem; redoable: boolean }) {
  const state = useCheckpointsState();
  const changed = item.files.filter((file) => file.action !== 'unchanged');
  const which =
    item.checkpoints.length === 1
      ? `checkpoint ${item.checkpoints[0]}`
      : `checkpoints ${item.checkpoints.join(', ')}`;
  return (
    <section
      className={`card restore-item${item.conflicts.length > 0 ? ' has-conflicts' : ''}`}
      aria-label="Undo result"
    >
      <header className="card-header">
        <strong>
          {TITLE[item.restoreKind]} {which}
        </strong>
        <span className="muted small">
          {item.mode === 'conversation'
            ? 'conversation only'
            : `${changed.length} file${changed.length === 1 ? '' : 's'} put back`}
          {item.messages > 0
            ? ` · ${item.messages} message${item.messages === 1 ? '' : 's'} ${item.restoreKind === 'redo' ? 'put back' : 'set aside'}`
            : ''}
        </span>
      </header>
      {changed.length > 0 && (
        <ul className="undo-files">
          {changed.map((file) => (
            <li key={file.path}>
              <code>
                {ACTION[file.action]} {file.path}
              </code>
            </li>
          ))}
        </ul>
      )}
      {item.conflicts.length > 0 && (
        <>
          <p className="warning small">Left as they are (changed since taskweave left them):</p>
          <ul className="undo-files conflicts">
            {item.conflicts.map((conflict) => (
              <li key={conflict.path}>
                <code>{conflict.path}</code> <span className="small">{conflict.reason}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {state && redoable && item.restoreKind !== 'redo' && (
        <div className="button-row">
          <button type="button" disabled={state.running} onClick={() => state.restore('redo')}>
            Redo
          </button>
        </div>
      )}
    </section>
  );
}
