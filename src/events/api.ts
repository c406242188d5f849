import { z } from 'zod';
import type { ImageRecord } from './images.js';
import { storedText } from './stored-text-schema.js';

/**
 * The REST shapes of `taskweave serve` (README, "Server"): request bodies as zod schemas the server
 * validates with, responses as types the web UI reads. Snake_case, like the events.
 */

/** `POST /api/tasks`: a task at the end of the workspace's queue. */
export const addTaskBodySchema = z.strictObject({
  description: storedText('the description').trim().min(1, 'description is empty: say what the task is'),
  title: storedText('the title').trim().min(1, 'title is empty').optional(),
});
export type AddTaskBody = z.infer<typeof addTaskBodySchema>;

/** `POST /api/tasks/:id/complete`: an optional summary of what was done. */
export const completeTaskBodySchema = z
  .strictObject({ summary: storedText('the summary').optional() })
  .default({});

/** Every 4xx/5xx answer. */
export interface ApiError {
  error: { code: string; message: string };
}

/** `POST /api/images`: the stored image's record (201). */
export type ApiImage = ImageRecord;

/** `GET /api/health`. */
export interface ApiHealth {
  status: 'ok';
  version: string;
  workspace: string;
  model: string;
  /** The model's price in US dollars per million tokens (the config's `prices`); null when unknown. */
  price: { input: number; output: number } | null;
  /** The run settings a chat message may override. */
  defaults: { max_steps: number; loop: 'react' | 'roa'; plan: 'auto' | 'always' | 'never' };
}

/** A session in `GET /api/sessions`. */
export interface ApiSession {
  id: string;
  title: string;
  goal: string;
  model: string;
  /** The last run's status (`running` while one goes on), or the session's. */
  status: string;
  run_count: number;
  input_tokens: number;
  output_tokens: number;
  /** US dollars of its runs whose model had a price; null when none had one. */
  cost: number | null;
  created_at: number;
  updated_at: number;
}

/** A run in `GET /api/sessions/:id` (and `taskweave sessions show --json`). */
export interface ApiRun {
  id: string;
  goal: string;
  mode: string;
  status: string;
  final_answer: string | null;
  steps: number;
  input_tokens: number;
  output_tokens: number;
  /** US dollars; null when its model had no price. */
  cost: number | null;
  started_at: number;
  ended_at: number | null;
}

/** `GET /api/sessions/:id`. */
export interface ApiSessionDetail {
  session: ApiSession;
  runs: ApiRun[];
  /** Whether a run of the session goes on in the server now. */
  running: boolean;
}

/** A to-do entry: a queued goal, or (under `tasks` of its goal) a task of a plan. Also `taskweave tasks --json`. */
export interface ApiTask {
  id: string;
  session_id: string | null;
  plan_id: string | null;
  /** The queue it waits in (`default`, or its plan's). */
  queue: string;
  /** The plan's own id for a plan task (`t2`). */
  key: string | null;
  title: string;
  description: string;
  check_command: string | null;
  status:
    | 'pending'
    | 'in_progress'
    | 'completed'
    | 'failed'
    | 'blocked'
    | 'cancelled'
    | 'skipped'
    | 'stopped';
  sequence: number;
  attempts: number;
  result_summary: string | null;
  fail_reason: string | null;
  created_at: number;
  updated_at: number;
  /** A goal's plan tasks (in their order); absent on plan tasks. */
  tasks?: ApiTask[];
  /** What the goal's runs used (`GET /api/tasks`); absent before its first run and on plan tasks. */
  usage?: { runs: number; input_tokens: number; output_tokens: number; cost: number | null };
}

/** `POST /api/tasks`. */
export interface ApiAddedTask {
  task: ApiTask;
  /** Its place in the queue, 1 = next. */
  position: number;
}

/** `GET /api/plans/:id`. */
export interface ApiPlan {
  id: string;
  session_id: string;
  run_id: string;
  status: 'proposed' | 'approved' | 'rejected' | 'completed' | 'aborted';
  feedback: string | null;
  tasks: (ApiTask & { depends_on: string[] })[];
}

/** A checkpoint as `GET /api/sessions/:id/checkpoints` lists it: a step that changed files. */
export interface ApiCheckpoint {
  number: number;
  run_id: string;
  step: number;
  task_id: string | null;
  tools: string[];
  files: { path: string; action: 'added' | 'modified' | 'deleted' }[];
  /** `yes` once an undo or rewind took it back (`partly` when a conflict kept some files). */
  undone: 'no' | 'partly' | 'yes';
  created_at: number;
}

/** A custom command as `GET /api/commands` lists it (a Markdown file of the project or the user). */
export interface ApiCommand {
  name: string;
  source: 'project' | 'user';
  description?: string;
}

/** The answer of `GET /api/commands`: the commands, and the files that could not be used. */
export interface ApiCommands {
  commands: ApiCommand[];
  problems: string[];
}
/** `GET /api/goals/:id/diff`: what a goal run in worktrees changed (its branch since it left yours). */
export interface ApiGoalDiff {
  goal: string;
  branch: string;
  base: string;
  stat: string;
  patch: string;
}

/** `POST /api/goals/:id/apply`: the goal branch merged into your current branch, or why not (nothing changed). */
export type ApiApplyOutcome =
  | { kind: 'applied'; branch: string; commit: string }
  | { kind: 'already-applied'; branch: string }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'refused'; message: string };
