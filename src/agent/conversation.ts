import type { ModelMessage } from 'ai';

/** One conversation the loop works on: the system prompt and the messages so far. */
export interface Conversation {
  system: string;
  messages: ModelMessage[];
  /** How many messages are already in the store (a task's prompt, rebuilt each step, never is). */
  saved?: number;
  /** For a task's conversation: the plan and the task it belongs to. */
  planId?: string;
  taskId?: string;
}
