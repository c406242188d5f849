import { z } from 'zod';

/** Tool calls that change files: what the well-formed-edit rate counts. */
export const EDIT_TOOLS: readonly string[] = ['edit_file', 'write_file'];

/** What a polyglot run adds to an eval run in results.json. */
export const polyglotFactsSchema = z.object({
  language: z.string(),
  exercise: z.string(),
  /** The tries it was allowed (1 or 2). */
  tries: z.number().int().min(1).max(2),
  /** The try after which the tests passed; null when they never did. */
  passedOnTry: z.number().int().min(1).max(2).nullable(),
  /** Test runs done (one per try that ran to its tests). */
  testRuns: z.number().int().nonnegative(),
  /** Edit tool calls (edit_file, write_file) and how many of them ended in an error. */
  editCalls: z.number().int().nonnegative(),
  editErrors: z.number().int().nonnegative(),
  /** Test files the run changed or removed (any makes the run fail). */
  changedTests: z.array(z.string()),
});

/** The polyglot part of a run's result. */
export type PolyglotFacts = z.infer<typeof polyglotFactsSchema>;

/** An exercise that did not run, and why (its language's toolchain is missing here). */
export const skippedExerciseSchema = z.object({ exercise: z.string(), reason: z.string() });

/** One skipped exercise. */
export type SkippedExercise = z.infer<typeof skippedExerciseSchema>;
