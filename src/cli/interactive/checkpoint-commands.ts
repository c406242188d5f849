import type { RestoreOutcome } from '../../runtime/checkpoints.js';
import { checkpointListLines, restoreLines } from '../render/checkpoint-lines.js';
import type { SessionState, SlashCommand } from './slash-command-types.js';

/** The widest the interactive session draws a checkpoint list (it wraps to the terminal). */
const DEFAULT_WIDTH = 80;

const REWIND_MODES = { code: 'code', conversation: 'conversation', both: 'both' } as const;

/** `/checkpoints`, `/undo`, `/redo` and `/rewind` of the interactive session. */
export const CHECKPOINT_COMMANDS: Record<string, SlashCommand> = {
  checkpoints: {
    usage: '/checkpoints',
    help: "this session's steps that changed files",
    run: async (state) => {
      const sessionId = current(state);
      if (!sessionId) return;
      const { checkpoints } = await state.runtime.checkpoints.list(sessionId);
      state.say(
        checkpointListLines(sessionId, checkpoints, state.style, width(state), REWIND_HINT).join('\n'),
      );
    },
  },
  undo: {
    usage: '/undo',
    help: 'undo the last step that changed files',
    run: (state) => restore(state, (sessionId) => state.runtime.checkpoints.undo(sessionId)),
  },
  redo: {
    usage: '/redo',
    help: 'put back what the last /undo or /rewind took back',
    run: (state) => restore(state, (sessionId) => state.runtime.checkpoints.redo(sessionId)),
  },
  rewind: {
    usage: '/rewind [n] [code|conversation|both]',
    help: 'go back to before checkpoint n (the list without n): files, conversation or both',
    run: async (state, argument) => {
      const sessionId = current(state);
      if (!sessionId) return;
      const [number, modeWord = 'both'] = argument.split(/\s+/).filter((word) => word !== '');
      if (number === undefined) {
        const { checkpoints } = await state.runtime.checkpoints.list(sessionId);
        state.say(
          checkpointListLines(sessionId, checkpoints, state.style, width(state), REWIND_HINT).join('\n'),
        );
        return;
      }
      const to = Number(number.replace(/^#/, ''));
      const mode = REWIND_MODES[modeWord.toLowerCase() as keyof typeof REWIND_MODES];
      if (!Number.isInteger(to) || to < 1 || mode === undefined) {
        state.say(
          state.style.yellow(
            'Say which checkpoint and what to rewind: /rewind 2, /rewind 2 code, /rewind 2 conversation (/rewind lists them).',
          ),
        );
        return;
      }
      await restore(state, (id) => state.runtime.checkpoints.rewind(id, { to }, { mode }));
    },
  },
};

const REWIND_HINT =
  '/undo takes the last back; /rewind <n> goes back to before checkpoint n (add code or conversation for one of them).';

function current(state: SessionState): string | undefined {
  if (state.sessionId === undefined) {
    state.say('No goal has run in this session yet: there is nothing to go back to.');
  }
  return state.sessionId;
}

function width(state: SessionState): number {
  return state.columns?.() ?? DEFAULT_WIDTH;
}

async function restore(state: SessionState, work: (sessionId: string) => Promise<RestoreOutcome>) {
  const sessionId = current(state);
  if (!sessionId) return;
  try {
    const outcome = await work(sessionId);
    state.say(restoreLines(outcome, sessionId, state.style, width(state), '/redo puts it back.').join('\n'));
  } catch (error) {
    state.say(state.style.red((error as Error).message));
  }
}
