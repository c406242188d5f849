import type { FileChange } from '../store/rows.js';

/** What a checkpoint did to one file: added, modified or deleted (over all its calls). */
export type FileAction = 'added' | 'modified' | 'deleted';

/** A step that changed files: the session's checkpoints are numbered from 1, oldest first. */
export interface Checkpoint {
  number: number;
  runId: string;
  step: number;
  taskId: string | null;
  /** The tools whose calls changed files in it. */
  tools: string[];
  files: { path: string; action: FileAction }[];
  /** Its change records, oldest first. */
  changes: FileChange[];
  /** Whether every change of it is undone (partly undone checkpoints are `partly`). */
  undone: 'no' | 'partly' | 'yes';
  createdAt: number;
}

/** A session's change records grouped into checkpoints (one per run, task and step). */
export function checkpointsOf(changes: FileChange[]): Checkpoint[] {
  const byStep = new Map<string, FileChange[]>();
  for (const change of changes) {
    const key = `${change.runId}\0${change.taskId ?? ''}\0${change.step}`;
    const list = byStep.get(key);
    if (list) list.push(change);
    else byStep.set(key, [change]);
  }
  return [...byStep.values()].map((group, index) => {
    const first = group[0] as FileChange;
    const undone = group.filter((change) => change.undoneBy !== null).length;
    return {
      number: index + 1,
      runId: first.runId,
      step: first.step,
      taskId: first.taskId,
      tools: [...new Set(group.map((change) => change.tool))],
      files: netFiles(group),
      changes: group,
      undone: undone === 0 ? 'no' : undone === group.length ? 'yes' : 'partly',
      createdAt: first.createdAt,
    };
  });
}

/** Per path, what a list of changes did over all (a file added then deleted did nothing). */
export function netFiles(changes: FileChange[]): { path: string; action: FileAction }[] {
  const first = new Map<string, FileChange>();
  const last = new Map<string, FileChange>();
  for (const change of changes) {
    if (!first.has(change.path)) first.set(change.path, change);
    last.set(change.path, change);
  }
  const files: { path: string; action: FileAction }[] = [];
  for (const [file, start] of first) {
    const end = last.get(file) as FileChange;
    if (start.beforeId === end.afterId && start.beforeMode === end.afterMode) continue;
    const action: FileAction =
      start.beforeId === null ? 'added' : end.afterId === null ? 'deleted' : 'modified';
    files.push({ path: file, action });
  }
  return files;
}

/** `+3 ~2 -1`: how many files a checkpoint added, modified and deleted. */
export function fileCounts(files: { action: FileAction }[]): string {
  const count = (action: FileAction) => files.filter((file) => file.action === action).length;
  return `+${count('added')} ~${count('modified')} -${count('deleted')}`;
}
