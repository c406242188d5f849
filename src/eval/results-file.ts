import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { runStatusSchema } from '../events/registry.js';
import { RuntimeInputError } from '../runtime/index.js';
import { describeIssues } from '../util/describe-issues.js';
import { ABLATIONS } from './ablation.js';
import { polyglotFactsSchema, skippedExerciseSchema } from './polyglot/run-facts.js';
import { webBenchFactsSchema } from './web-bench/run-facts.js';

/** The format name and version a results file carries. */
export const RESULTS_FORMAT = 'taskweave-eval/1';

const count = z.number().int().nonnegative();

/** One run as the results file keeps it. */
export const evalRunSchema = z.object({
  model: z.string(),
  scenario: z.string(),
  ablation: z.enum(ABLATIONS),
  repeat: z.number().int().positive(),
  passed: z.boolean(),
  status: z.union([runStatusSchema, z.literal('error')]),
  reason: z.string(),
  overBudget: z.enum(['steps', 'tokens', 'time']).optional(),
  steps: count,
  modelCalls: count,
  inputTokens: count,
  outputTokens: count,
  /** The largest input of one of the run's own model calls (its subagents' aside), in tokens; absent in older results. */
  largestRequest: count.optional(),
  refusedFinalAnswers: count,
  notes: count,
  questions: count,
  wallMs: z.number().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  folder: z.string().optional(),
  /** Set for the runs of the polyglot suite. */
  polyglot: polyglotFactsSchema.optional(),
  /** Set for the runs of the Web-Bench suite: its metrics and each task's outcome. */
  webBench: webBenchFactsSchema.optional(),
});

/** One run of a scenario, with its cost. */
export type EvalRun = z.infer<typeof evalRunSchema>;

/** What an eval writes to results.json (and prints with --json). */
export const evalResultsSchema = z.object({
  format: z.literal(RESULTS_FORMAT),
  taskweave: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  models: z.array(z.string()),
  ablations: z.array(z.enum(ABLATIONS)),
  scenarios: z.array(z.string()),
  repeat: z.number().int().positive(),
  /** Which suite ran: taskweave's scenarios (the default), the polyglot benchmark or Web-Bench. */
  suite: z.enum(['scenarios', 'polyglot', 'web-bench']).optional(),
  /** Polyglot exercises or Web-Bench projects that did not run, with why (a set-up that cannot work here is not a failure). */
  skipped: z.array(skippedExerciseSchema).optional(),
  /** The eval was stopped before every run was done. */
  stopped: z.boolean(),
  runs: z.array(evalRunSchema),
  /** Derived from `runs` (summary.ts); `--compare` recomputes it. */
  summary: z.array(z.unknown()),
});

/** The contents of a results file. */
export type EvalResults = z.infer<typeof evalResultsSchema>;

/** Reads a results file; anything else is an error naming the file and the problem. */
export async function readResultsFile(file: string): Promise<EvalResults> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new RuntimeInputError(`Cannot read the eval results ${file}: ${(error as Error).message}`);
  }
  const parsed = evalResultsSchema.safeParse(value);
  if (!parsed.success)
    throw new RuntimeInputError(
      `${file} is not a taskweave eval results file (${RESULTS_FORMAT}): ${describeIssues(parsed.error)}`,
    );
  return parsed.data;
}
