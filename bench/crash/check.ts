import { readdirSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { TEMP_SUFFIX } from '../../src/tools/workspace/temp-files.js';
import { outputFor } from './goal-script.js';

/** What one episode left once it was resumed to completion. */
export interface EpisodeFindings {
  /** Plan tasks not completed, or whose side effect (their log line) is missing; the goal not completed. */
  lost: number;
  /** Tasks completed more than once: announced twice in a session's log, or completed in a plan made again. */
  completedTwice: number;
  /** Log lines beyond one per task: a step's side effect done twice. */
  doubled: number;
  /** Output files present with other content than the whole of what was written. */
  halfWritten: number;
  tempLeft: number;
  /** Processes of the episode's commands still running. */
  commandsLeft: number;
  corrupt: number;
  /** The first process was killed before it stored the goal (not a loss: it never accepted it). */
  notStarted: number;
}

/** Looks at an episode's workspace and database after its last resume. */
export async function checkEpisode(workspace: string, taskIds: string[]): Promise<EpisodeFindings> {
  const findings: EpisodeFindings = {
    lost: 0,
    completedTwice: 0,
    doubled: 0,
    halfWritten: 0,
    tempLeft: 0,
    commandsLeft: 0,
    corrupt: 0,
    notStarted: 0,
  };
  const lines = (await readFile(path.join(workspace, 'log.txt'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean);
  for (const id of taskIds) {
    const count = lines.filter((line) => line === id).length;
    if (count === 0) findings.lost += 1;
    if (count > 1) findings.doubled += count - 1;
    const written = await readFile(path.join(workspace, 'out', `${id}.txt`), 'utf8').catch(() => undefined);
    if (written === undefined) findings.lost += 1;
    else if (written !== outputFor(id)) findings.halfWritten += 1;
  }
  findings.tempLeft = tempFiles(workspace);
  findings.commandsLeft = commandsRunningIn(workspace);
  try {
    const db = openDatabase({ path: path.join(workspace, '.taskweave', 'taskweave.db') });
    try {
      const integrity = db.sqlite.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') findings.corrupt += 1;
      const tasks = new TaskStore(db).listAll();
      // Killed before the goal was stored: the command never accepted it; nothing of it can be lost.
      if (tasks.length === 0 && lines.length === 0) return { ...findings, lost: 0, notStarted: 1 };
      const planTasks = tasks.filter((task) => task.planId !== null);
      for (const id of taskIds) {
        // A plan made again after a crash has its own task of this key: completed there too, the step was done twice.
        const done = planTasks.filter((task) => task.key === id && task.status === 'completed').length;
        if (done === 0) findings.lost += 1;
        findings.completedTwice += Math.max(0, done - 1);
      }
      findings.lost += tasks.filter((task) => task.planId === null && task.status !== 'completed').length;
      const sessions = new SessionStore(db);
      for (const session of sessions.listSessions({ limit: 1000 })) {
        const completions = new Map<string, number>();
        for (const event of sessions.events(session.id)) {
          if (event.type === 'agent_update' && event.update_type === 'task_completed')
            completions.set(event.task_id, (completions.get(event.task_id) ?? 0) + 1);
        }
        for (const count of completions.values()) findings.completedTwice += Math.max(0, count - 1);
      }
    } finally {
      db.close();
    }
  } catch {
    findings.corrupt += 1;
  }
  return findings;
}

function tempFiles(folder: string): number {
  let count = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) count += tempFiles(path.join(folder, entry.name));
    else if (entry.name.endsWith(TEMP_SUFFIX)) count += 1;
  }
  return count;
}

/** Processes (commands the agent started, or what they started) whose folder is in the workspace. */
export function commandsRunningIn(workspace: string): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === workspace || cwd.startsWith(`${workspace}/`)) count += 1;
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return count;
}
