import { createContext, useContext, useEffect, useState } from 'react';
import type { ApiCheckpoint } from '../../../src/events/api.js';
import type { SessionView } from '../../../src/events/session-view.js';
import { api } from '../connection/api.js';

/** What the step cards and the plan panel need to offer Undo: the session's checkpoints. */
export interface CheckpointsState {
  sessionId: string;
  checkpoints: readonly ApiCheckpoint[];
  /** Whether a run of the session goes on (nothing is undone meanwhile). */
  running: boolean;
  /** Undo, rewind or redo through the store's socket. */
  restore: (
    action: 'undo' | 'rewind' | 'redo',
    options?: { to?: number; taskId?: string; mode?: 'code' | 'conversation' | 'both' },
  ) => void;
}

export const CheckpointsContext = createContext<CheckpointsState | null>(null);

/** The session's checkpoints, or null outside a session page. */
export function useCheckpointsState(): CheckpointsState | null {
  return useContext(CheckpointsContext);
}

/** The key a step has in the checkpoint list: its run, task and step. */
export function stepKey(runId: string, taskId: string | null | undefined, step: number): string {
  return `${runId}\u0000${taskId ?? ''}\u0000${step}`;
}

/**
 * Loads a session's checkpoints, again whenever a run of it ends or a restore happened (what
 * changes them), from `GET /api/sessions/:id/checkpoints`.
 */
export function useCheckpoints(
  sessionId: string | undefined,
  view: SessionView | undefined,
): ApiCheckpoint[] {
  const [checkpoints, setCheckpoints] = useState<ApiCheckpoint[]>([]);
  const changes = view
    ? `${view.items.filter((item) => item.kind === 'completion' || item.kind === 'restore').length}:${view.runs.length}`
    : '';
  useEffect(() => {
    if (!sessionId || changes === '') return;
    let current = true;
    api
      .checkpoints(sessionId)
      .then((answer) => {
        if (current) setCheckpoints(answer.checkpoints);
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [sessionId, changes]);
  return checkpoints;
}

/** Per path, what a list of checkpoints did together (added then changed is added; then deleted, deleted). */
export function filesOf(checkpoints: readonly ApiCheckpoint[]): ApiCheckpoint['files'] {
  const byPath = new Map<string, ApiCheckpoint['files'][number]>();
  for (const checkpoint of checkpoints) {
    for (const file of checkpoint.files) {
      const earlier = byPath.get(file.path);
      // Added then changed is still added; changed then deleted is deleted.
      byPath.set(file.path, earlier?.action === 'added' && file.action !== 'deleted' ? earlier : file);
    }
  }
  return [...byPath.values()];
}
