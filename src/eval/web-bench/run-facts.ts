import { z } from 'zod';

const count = z.number().int().nonnegative();

/** How one task of a project went. */
export const taskOutcomeSchema = z.object({
  id: z.string(),
  /** Checks run for it (one per attempt that reached its checks). */
  attempts: count,
  /** The attempt after which the specs of tasks 1..N passed; null when they never did. */
  passedOnTry: z.number().int().min(1).max(2).nullable(),
  /** Time of its checks together. */
  checkMs: z.number().nonnegative(),
  /** The end of the last failing check's output. */
  output: z.string().optional(),
});

/** One task's outcome. */
export type TaskOutcome = z.infer<typeof taskOutcomeSchema>;

/** What a Web-Bench project run adds to an eval run in results.json: Web-Bench's metrics and each task. */
export const webBenchFactsSchema = z.object({
  project: z.string(),
  /** Attempts per task (1, or 2: a failed check's output goes back once). */
  tries: z.number().int().min(1).max(2),
  /** Tasks in the project. */
  tasks: count,
  /** pass_tasks@1: tasks that passed on their first attempt before any failure (tasks passed in a row). */
  passedFirst: count,
  /** pass_tasks@2: tasks passed, retries included, before a task failed its last attempt. */
  passedSecond: count,
  /** errors@1: tasks whose first attempt failed. */
  errorsFirst: count,
  /** The tasks reached, in order. */
  results: z.array(taskOutcomeSchema),
});

/** The Web-Bench part of a run's result. */
export type WebBenchFacts = z.infer<typeof webBenchFactsSchema>;
