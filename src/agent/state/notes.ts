import type { Conversation, RunContext } from './run-state.js';

/**
 * Adds a message from taskweave itself to the model's conversation (a recovery rule fired, a
 * check failed) and shows it to the user as an agent_note: `shown` when the user needs less than
 * the model (the output of a check the user already saw as a tool call), else the same text.
 */
export function addNote(
  run: RunContext,
  conversation: Conversation,
  note: { step: number; taskId?: string; content: string; shown?: string },
): void {
  run.emit({
    type: 'agent_update',
    update_type: 'agent_note',
    step: note.step,
    content: note.shown ?? note.content,
    task_id: note.taskId,
  });
  conversation.messages.push({ role: 'user', content: `[taskweave] ${note.content}` });
}
