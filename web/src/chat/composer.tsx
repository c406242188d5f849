import { type FormEvent, useState } from 'react';
import type { RunControls } from '../connection/session-store.js';
import { RunControlsBar } from '../controls/run-controls.js';
import { CommandSuggestions, listsCommands, useCustomCommands } from './command-suggestions.js';

/**
 * The message field with the run controls, Start, and Stop while a run goes on. Enter sends
 * (Shift+Enter: a new line). `/` lists the custom commands (read again each time it opens);
 * `/name args` runs one (the server expands it).
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
  onSend: (content: string) => void;
  onStop: () => void;
  continuing: boolean;
}) {
  const [content, setContent] = useState('');
  const commands = useCustomCommands(listsCommands(content));
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const text = content.trim();
    if (text === '') return;
    onSend(text);
    setContent('');
  };
  return (
    <form className="composer" onSubmit={send}>
      <CommandSuggestions typed={content} loaded={commands} onPick={setContent} />
      <textarea
        aria-label="Message"
        placeholder={continuing ? 'Continue this session…' : 'What should taskweave do?'}
        rows={2}
        value={content}
        onChange={(event) => setContent(event.target.value)}
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
          <button type="submit" className="primary" disabled={content.trim() === ''}>
            {running ? 'Queue' : 'Start'}
          </button>
        </div>
      </div>
    </form>
  );
}
