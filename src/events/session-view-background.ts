import type { ServerEvent } from './registry.js';
import type { BackgroundCommandView, SessionView } from './session-view-types.js';

type BackgroundEvent = Extract<
  ServerEvent,
  { type: 'background_started' | 'background_output' | 'background_ended' }
>;

/** Folds a background command's start, output and end into the session's list of them. */
export function foldBackgroundEvent(view: SessionView, event: BackgroundEvent): SessionView {
  switch (event.type) {
    case 'background_started': {
      const started: BackgroundCommandView = {
        id: event.command_id,
        runId: event.run_id,
        command: event.command,
        state: 'running',
        lines: [],
        startedAt: event.ts,
      };
      // A resumed session starts counting again (bg1): the newer command takes the id's place.
      return { ...view, background: [...view.background.filter((c) => c.id !== event.command_id), started] };
    }
    case 'background_output':
      return update(view, event.command_id, (command) =>
        command.state === 'running' ? { ...command, lines: event.lines } : command,
      );
    case 'background_ended':
      return update(view, event.command_id, (command) => ({
        ...command,
        state: event.state,
        exitCode: event.exit_code,
        stoppedBy: event.stopped_by,
        lines: event.lines.length > 0 ? event.lines : command.lines,
      }));
  }
}

function update(
  view: SessionView,
  id: string,
  change: (command: BackgroundCommandView) => BackgroundCommandView,
): SessionView {
  return {
    ...view,
    background: view.background.map((command) => (command.id === id ? change(command) : command)),
  };
}
