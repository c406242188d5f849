import type { ModelMessage } from 'ai';

/** One conversation the loop works on: the system prompt and the messages so far. */
export interface Conversation {
  system: string;
  messages: ModelMessage[];
  /** How many messages are already in the store (a task's prompt, rebuilt each step, never is). */
  saved?: number;
  /** The user's request it works on: kept word for word when the conversation is compacted. */
  goal?: string;
  /** For a task's conversation: the plan and the task it belongs to. */
  planId?: string;
  taskId?: string;
  /**
   * A subagent's conversation: kept in memory only, never in the session's messages (its answer
   * reaches the parent's as the delegate call's result; after a crash the child is reported as
   * interrupted, see subagent_started and subagent_ended in the event log).
   */
  transient?: boolean;
}
