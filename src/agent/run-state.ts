import type { ModelMessage } from 'ai';
import type { TokenUsage } from '../model/call-model.js';
import type { ResolvedModel } from '../model/types.js';
import type { FileTracker } from '../tools/file-tracker.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';
import type { RunControl } from './control.js';
import type { Emit } from './emit.js';
import type { RecoveryTracker } from './recovery.js';

/** What every part of one run shares: who to call, where to work, what has been spent. */
export interface RunContext {
  runId: string;
  model: ResolvedModel;
  registry: ToolRegistry;
  workspace: Workspace;
  files: FileTracker;
  control: RunControl;
  emit: Emit;
  recovery: RecoveryTracker;
  maxSteps: number;
  /** Steps taken so far in this run (all tasks together). */
  steps: number;
  usage: TokenUsage;
}

/** One conversation the loop works on: the system prompt and the messages so far. */
export interface Conversation {
  system: string;
  messages: ModelMessage[];
}
