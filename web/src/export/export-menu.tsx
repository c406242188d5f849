import { useState } from 'react';
import { downloadExport, type ExportFormat } from './download-export.js';

const CHOICES: { format: ExportFormat; label: string; title: string }[] = [
  { format: 'html', label: 'HTML', title: 'A page readable offline, with no script' },
  { format: 'md', label: 'Markdown', title: 'The session as markdown' },
  { format: 'json', label: 'JSON', title: 'Every step and output whole, for programs' },
];

/** Export in the session header: downloads the session as HTML, markdown or JSON. */
export function ExportMenu({ sessionId }: { sessionId: string }) {
  const [busy, setBusy] = useState<ExportFormat>();
  const [error, setError] = useState<string>();
  const start = async (format: ExportFormat) => {
    setBusy(format);
    setError(undefined);
    try {
      await downloadExport(sessionId, format);
    } catch (failure) {
      setError(`Export failed: ${(failure as Error).message}`);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <fieldset className="export-menu" aria-label="Export this session">
      <span className="muted small">Export</span>
      {CHOICES.map((choice) => (
        <button
          key={choice.format}
          type="button"
          className="export-button"
          title={choice.title}
          disabled={busy !== undefined}
          onClick={() => void start(choice.format)}
        >
          {busy === choice.format ? '…' : choice.label}
        </button>
      ))}
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
