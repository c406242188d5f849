import { fillSection } from '../../prompts/template.js';
import type { ExecutedCall } from '../state/executed-call.js';
import { addNote } from '../state/notes.js';
import type { Conversation, RunContext } from '../state/run-state.js';
import { REPETITION_FAIL_LIMIT, type RecoveryTracker, SAME_FAILURE_LIMIT } from './recovery.js';
import type { Interruption } from './step.js';

const MAX_ERROR_IN_QUESTION = 600;
/** The template of the recovery rules' notes for the model (src/prompts/recovery.md). */
const NOTES = 'recovery';

export interface ApplyRecoveryOptions {
  run: RunContext;
  /** The counts of this loop (each plan task keeps its own). */
  recovery: RecoveryTracker;
  signal: AbortSignal;
  conversation: Conversation;
  executed: ExecutedCall[];
  step: number;
  taskId?: string;
}

/**
 * Applies the recovery rules to the calls of one step: notes to the model for repetition, a
 * question to the user after the same action failed SAME_FAILURE_LIMIT times, and the end of
 * the run when the model keeps repeating itself. Returns the outcome when the loop must end.
 */
export async function applyRecovery(options: ApplyRecoveryOptions): Promise<Interruption | undefined> {
  const { run, conversation, executed, step, taskId, recovery, signal } = options;
  const notes: string[] = [];
  for (const { call, result } of executed) {
    const verdict = recovery.observe({
      name: call.name,
      args: call.args,
      isError: result.isError,
      output: result.output,
    });
    switch (verdict.kind) {
      case 'ok':
        break;
      case 'warn_repetition':
        notes.push(fillSection(NOTES, 'repeating', { tool: call.name, count: String(verdict.count) }));
        break;
      case 'fail_repetition': {
        const reason = `The agent repeated the same call ${verdict.count} times in a row (${call.name}); the run was stopped (limit ${REPETITION_FAIL_LIMIT}).`;
        run.emit({ type: 'agent_update', update_type: 'agent_note', step, content: reason, task_id: taskId });
        return { kind: 'interruption', status: 'failed', reason };
      }
      case 'ask_user': {
        const question =
          `${verdict.action} has failed ${SAME_FAILURE_LIMIT} times. The last error was:\n` +
          `${verdict.lastError.slice(0, MAX_ERROR_IN_QUESTION)}\nHow should I proceed?`;
        const reply = await run.control.requestInput(question, { signal, step, taskId });
        if (reply.status === 'unavailable') {
          return { kind: 'interruption', status: 'needs_input', reason: question };
        }
        if (reply.status === 'stopped')
          return { kind: 'interruption', status: 'stopped', reason: 'Stopped by the user.' };
        recovery.resetAction(verdict.action);
        const failed = { action: verdict.action, limit: String(SAME_FAILURE_LIMIT) };
        notes.push(
          reply.status === 'answered'
            ? fillSection(NOTES, 'user-said', { ...failed, answer: reply.answer })
            : fillSection(NOTES, 'no-answer', failed),
        );
        break;
      }
    }
  }
  if (notes.length > 0) addNote(run, conversation, { step, taskId, content: notes.join('\n\n') });
  return undefined;
}
