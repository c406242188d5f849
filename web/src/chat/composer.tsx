import { type DragEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import type { RunControls } from '../connection/session-store.js';
import { RunControlsBar } from '../controls/run-controls.js';
import { AttachmentList } from './attachment-list.js';
import { CommandSuggestions, listsCommands, useCustomCommands } from './command-suggestions.js';
import { useAttachments } from './use-attachments.js';

/** The types the server takes (it checks the bytes; the picker only offers these). */
const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/**
 * The message field with the run controls, Start, and Stop while a run goes on. Enter sends
 * (Shift+Enter: a new line). `/` lists the custom commands (read again each time it opens);
 * `/name args` runs one (the server expands it). Images are pasted, dropped or picked with
 * Attach; each uploads at once and Start waits until none is uploading.
 */
export function Composer({
  running,
  controls,
  onControls,
  onSend,
  onStop,
  continuing,
}: {
  running: boolean;
  controls: RunControls;
  onControls: (controls: RunControls) => void;
  onSend: (content: string, images: string[]) => void;
  onStop: () => void;
  continuing: boolean;
}) {
  const [content, setContent] = useState('');
  const [dropping, setDropping] = useState(false);
  const attachments = useAttachments();
  const picker = useRef<HTMLInputElement>(null);
  const commands = useCustomCommands(listsCommands(content));
  const waiting = attachments.uploading > 0;
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const text = content.trim();
    if (text === '' || waiting) return;
    onSend(text, attachments.hashes);
    setContent('');
    attachments.clear();
  };
  const drop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    setDropping(false);
    attachments.add([...event.dataTransfer.files]);
  };
  // A file dropped elsewhere on the page is attached too: the browser would open it in the tab
  // instead, leaving the app and what was typed.
  const { add } = attachments;
  useEffect(() => {
    const files = (event: globalThis.DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: globalThis.DragEvent) => {
      if (files(event)) event.preventDefault();
    };
    const dropped = (event: globalThis.DragEvent) => {
      if (event.defaultPrevented || !files(event)) return;
      event.preventDefault();
      add([...(event.dataTransfer?.files ?? [])]);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', dropped);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', dropped);
    };
  }, [add]);
  return (
    <form
      className={`composer${dropping ? ' dropping' : ''}`}
      onSubmit={send}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDropping(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={drop}
    >
      <CommandSuggestions typed={content} loaded={commands} onPick={setContent} />
      <AttachmentList attachments={attachments.list} onRemove={attachments.remove} />
      <textarea
        aria-label="Message"
        placeholder={continuing ? 'Continue this session…' : 'What should taskweave do?'}
        rows={2}
        value={content}
        onChange={(event) => setContent(event.target.value)}
        onPaste={(event) => {
          const files = [...event.clipboardData.files];
          if (files.length === 0) return;
          // The files are attached; their names or a path the clipboard also holds are not typed in.
          event.preventDefault();
          attachments.add(files);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="composer-row">
        <RunControlsBar controls={controls} onChange={onControls} />
        <div className="button-row">
          {waiting && (
            <span className="muted small" role="status">
              Waiting for {attachments.uploading === 1 ? 'an image' : `${attachments.uploading} images`} to
              upload…
            </span>
          )}
          <input
            ref={picker}
            type="file"
            accept={IMAGE_TYPES}
            multiple
            hidden
            aria-label="Image files"
            onChange={(event) => {
              attachments.add([...(event.target.files ?? [])]);
              event.target.value = '';
            }}
          />
          <button
            type="button"
            className="attach"
            onClick={() => picker.current?.click()}
            title="Attach images (PNG, JPEG, GIF, WebP); you can also paste or drop them here"
          >
            Attach image
          </button>
          {running && (
            <button
              type="button"
              className="danger"
              onClick={onStop}
              title="Stop at the next phase boundary (Esc)"
            >
              Stop
            </button>
          )}
          <button
            type="submit"
            className="primary"
            disabled={content.trim() === '' || waiting}
            title={waiting ? 'Waiting for the images to upload' : undefined}
          >
            {running ? 'Queue' : 'Start'}
          </button>
        </div>
      </div>
    </form>
  );
}

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer.types.includes('Files');
}
