import { useState } from 'react';
import { formatBytes } from './format.js';
import type { Attachment } from './use-attachments.js';

/** The images attached to the message being written: a thumbnail, name and size, and Remove for each. */
export function AttachmentList({
  attachments,
  onRemove,
}: {
  attachments: readonly Attachment[];
  onRemove: (id: number) => void;
}) {
  if (attachments.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attached images">
      {attachments.map((attachment) => (
        <li key={attachment.id} className={`attachment attachment-${attachment.state}`}>
          <Thumbnail attachment={attachment} />
          <div className="attachment-text">
            <span className="attachment-name" title={attachment.name}>
              {attachment.name}
            </span>
            <span className="muted small">
              {formatBytes(attachment.size)}
              {attachment.state === 'uploading' && ' · uploading…'}
              {attachment.state === 'stored' && ` · ${attachment.image.width}×${attachment.image.height}`}
            </span>
            {attachment.state === 'refused' && (
              <span className="attachment-error" role="alert">
                {attachment.error}
              </span>
            )}
          </div>
          <button
            type="button"
            className="attachment-remove"
            aria-label={`Remove ${attachment.name}`}
            title="Remove"
            onClick={() => onRemove(attachment.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

function Thumbnail({ attachment }: { attachment: Attachment }) {
  // A file the browser cannot draw (not an image after all) shows a mark instead of a broken icon.
  const [broken, setBroken] = useState(false);
  if (attachment.state === 'refused' || broken || !attachment.preview)
    return (
      <span className="attachment-thumb attachment-thumb-none" aria-hidden="true">
        !
      </span>
    );
  return <img className="attachment-thumb" src={attachment.preview} alt="" onError={() => setBroken(true)} />;
}
