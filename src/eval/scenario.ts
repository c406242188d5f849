import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RuntimeInputError } from '../runtime/index.js';
import { describeIssues } from '../util/describe-issues.js';
import { packageRoot } from '../util/package-root.js';

/** The scenarios shipped with taskweave: `eval/scenarios/` of the package (from src/ and dist/ alike). */
export const SCENARIOS_DIR = path.join(packageRoot(), 'eval', 'scenarios');

const budgetSchema = z.strictObject({
  /** The step limit of the run (`--max-steps`). */
  maxSteps: z.number().int().positive(),
  /** Input and output tokens together; the run is stopped when it spends more. */
  maxTokens: z.number().int().positive(),
  /** Wall-clock limit of the run, in seconds. */
  maxSeconds: z.number().int().positive().optional(),
});

const scenarioFileSchema = z.strictObject({
  title: z.string().min(1),
  goal: z.string().min(1),
  budget: budgetSchema,
  /** The answer the scenario gives when the agent asks (request_input); without it nobody answers. */
  input: z.strictObject({ answer: z.string().min(1) }).optional(),
  /** Packages of taskweave's own installation linked into the workspace's node_modules (offline). */
  link: z.array(z.string().min(1)).default([]),
});

/** A scenario's limits. */
export type ScenarioBudget = z.infer<typeof budgetSchema>;

/** One eval scenario: a goal, the files it starts from, a checker program and a budget. */
export interface Scenario extends z.infer<typeof scenarioFileSchema> {
  /** The folder's name. */
  name: string;
  /** The scenario's folder. */
  dir: string;
  /** The files the workspace starts with. */
  startDir: string;
  /** The checker: `node check.mjs` in the workspace exits 0 when the goal is met. */
  checker: string;
}

/** Reads one scenario folder; a missing or malformed part is an error naming the file. */
export async function loadScenario(dir: string): Promise<Scenario> {
  const file = path.join(dir, 'scenario.json');
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new RuntimeInputError(`Cannot read the scenario ${file}: ${(error as Error).message}`);
  }
  const parsed = scenarioFileSchema.safeParse(value);
  if (!parsed.success)
    throw new RuntimeInputError(`The scenario ${file} is not valid: ${describeIssues(parsed.error)}`);
  const scenario = {
    ...parsed.data,
    name: path.basename(dir),
    dir,
    startDir: path.join(dir, 'start'),
    checker: path.join(dir, 'check.mjs'),
  };
  for (const required of [scenario.startDir, scenario.checker]) {
    if (!(await exists(required)))
      throw new RuntimeInputError(`The scenario ${dir} has no ${path.basename(required)}.`);
  }
  return scenario;
}

/**
 * The scenarios of a folder, sorted by name; with `names`, only those (an unknown name is an
 * error that lists the known ones).
 */
export async function loadScenarios(options: { dir?: string; names?: string[] } = {}): Promise<Scenario[]> {
  const dir = options.dir ?? SCENARIOS_DIR;
  const entries = await readdir(dir, { withFileTypes: true });
  const known = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const wanted = options.names && options.names.length > 0 ? options.names : known;
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new RuntimeInputError(
      `Unknown scenario ${unknown.join(', ')}. The scenarios are: ${known.join(', ')}.`,
    );
  return Promise.all([...new Set(wanted)].map((name) => loadScenario(path.join(dir, name))));
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
