import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RuntimeInputError } from '../runtime/index.js';
import { describeIssues } from '../util/describe-issues.js';
import type { Scenario } from './scenario.js';

const actionSchema = z.union([
  /** Write this file with its content from the scenario's `solution/` folder. */
  z.strictObject({ write: z.string().min(1) }),
  /** Delete this file (a rename is a write and a remove). */
  z.strictObject({ remove: z.string().min(1) }),
  /** Run a shell command (to verify). */
  z.strictObject({ run: z.string().min(1) }),
  /** Ask the user this question (request_input) before the actions after it. */
  z.strictObject({ ask: z.string().min(1) }),
  /**
   * Find something out by reading files: an `explore` subagent's job (delegate; consecutive ones
   * run at once) that reads them and answers `answer`, or, without delegate, the reads made in
   * the run's own conversation.
   */
  z.strictObject({
    explore: z.string().min(1),
    read: z.array(z.string().min(1)).min(1),
    answer: z.string().min(1),
  }),
]);

const oracleSchema = z.strictObject({
  parts: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z][a-z0-9-]*$/),
        title: z.string().min(1),
        description: z.string().min(1),
        /** Parts this one depends on. */
        after: z.array(z.string()).default([]),
        actions: z.array(actionSchema).min(1),
      }),
    )
    .min(1),
  /** The final answer. */
  answer: z.string().min(1),
});

/** One thing the oracle does. */
export type OracleAction = z.infer<typeof actionSchema>;
/** One part of the work, which becomes a plan task when the model plans. */
export type OraclePart = z.infer<typeof oracleSchema>['parts'][number];

/**
 * How a scenario is solved, part by part, independent of how the agent runs: the script model's
 * oracle and stop-early scripts are built from it (oracle-script.ts), and the checker's oracle
 * test applies it directly to the start files.
 */
export interface Oracle {
  parts: OraclePart[];
  answer: string;
  /** The contents of the files the oracle writes, by path. */
  files: Map<string, string>;
}

/** Reads a scenario's oracle.json and the solution files it writes. */
export async function loadOracle(scenario: Scenario): Promise<Oracle> {
  const file = path.join(scenario.dir, 'oracle.json');
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new RuntimeInputError(
      `The scenario ${scenario.name} has no readable oracle.json, which the script models need: ${(error as Error).message}`,
    );
  }
  const parsed = oracleSchema.safeParse(value);
  if (!parsed.success) throw new RuntimeInputError(`${file} is not valid: ${describeIssues(parsed.error)}`);
  const files = new Map<string, string>();
  for (const part of parsed.data.parts) {
    for (const action of part.actions) {
      if ('write' in action)
        files.set(action.write, await readFile(path.join(scenario.dir, 'solution', action.write), 'utf8'));
    }
  }
  return { ...parsed.data, files };
}
