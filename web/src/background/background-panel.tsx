import type { BackgroundCommandView } from '../../../src/events/session-view-types.js';

/** How many of a command's last lines the panel shows. */
const SHOWN_LINES = 3;

/** The session's background commands with their last lines; a running one has a Stop button. */
export function BackgroundPanel({
  commands,
  onStop,
}: {
  commands: BackgroundCommandView[];
  onStop: (id: string) => void;
}) {
  if (commands.length === 0) return null;
  return (
    <section className="background-panel" aria-label="Background commands">
      <h2 className="small muted">Background commands</h2>
      <ul>
        {commands.map((command) => (
          <li key={command.id} className={`background-command state-${command.state}`}>
            <div className="background-head">
              <strong>{command.id}</strong>
              <span className="state-chip">{stateText(command)}</span>
              <code className="background-line" title={command.command}>
                {command.command}
              </code>
              {command.state === 'running' && (
                <button type="button" onClick={() => onStop(command.id)} aria-label={`Stop ${command.id}`}>
                  Stop
                </button>
              )}
            </div>
            {command.lines.length > 0 && (
              <pre className="background-tail">{command.lines.slice(-SHOWN_LINES).join('\n')}</pre>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function stateText(command: BackgroundCommandView): string {
  switch (command.state) {
    case 'running':
      return 'running';
    case 'exited':
      return `exited ${command.exitCode ?? ''}`.trim();
    case 'killed':
      return 'killed';
    case 'stopped':
      return command.stoppedBy ? `stopped by ${command.stoppedBy}` : 'stopped';
  }
}
