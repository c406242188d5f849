/*
 * Face: the checkpoints of a workspace's sessions (undo, redo, rewind, prune) for the commands
 * and the interactive session; loaded when a command asks for them.
 */
export {
  type Checkpoint,
  CheckpointBook,
  DEFAULT_CHECKPOINT_KEEP_DAYS,
  fileCounts,
  type PruneOutcome,
  type RestoreMode,
  type RestoreOutcome,
} from './books/checkpoint-book.js';
