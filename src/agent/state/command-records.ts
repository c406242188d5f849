import type { Store } from '../../store/ports.js';
import type { CommandRecorder } from '../../tools/types.js';

/**
 * Records the commands one tool call runs in the store, with this process as their owner: a
 * process killed with `kill -9` leaves its rows behind, and the next resume or takeover ends the
 * commands they name. A failed write loses only that protection, not the call.
 */
export function commandRecorder(
  store: Store,
  call: { sessionId: string; runId: string; callId: string; taskId: string | undefined },
): CommandRecorder {
  return {
    started({ mark, pgid, command, backgroundId }) {
      store.commands
        .started({
          id: mark,
          sessionId: call.sessionId,
          runId: call.runId,
          callId: call.callId,
          taskId: call.taskId ?? null,
          command,
          pgid,
          ownerPid: process.pid,
          backgroundId: backgroundId ?? null,
        })
        .catch(() => {});
    },
    ended(mark) {
      store.commands.ended(mark).catch(() => {});
    },
  };
}
