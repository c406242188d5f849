import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RuntimeInputError } from '../../runtime/index.js';
import { describeIssues } from '../../util/describe-issues.js';
import { nearestNames } from '../../util/edit-distance.js';

const configSchema = z.object({
  files: z.object({
    solution: z.array(z.string().min(1)).min(1),
    test: z.array(z.string().min(1)).min(1),
    example: z.array(z.string().min(1)).default([]),
  }),
});

/** One exercise of the polyglot benchmark: `<language>/exercises/practice/<name>/`. */
export interface PolyglotExercise {
  /** `<language>/<exercise>`: the unit's name in results. */
  name: string;
  language: string;
  exercise: string;
  /** The exercise's folder. */
  dir: string;
  /** `.docs/introduction.md`, `instructions.md` and `instructions.append.md`, joined. */
  instructions: string;
  /** The files the model is to change (`.meta/config.json` `files.solution`). */
  solutionFiles: string[];
  /** The test files, which must stay as they are. */
  testFiles: string[];
  /** The reference solution (`files.example`, paths in the exercise's folder), in the order of solutionFiles. */
  exampleFiles: string[];
}

/** The folder that holds a language's exercises. */
export function practiceDir(root: string, language: string): string {
  return path.join(root, language, 'exercises', 'practice');
}

/** The language folders of a benchmark checkout (those with `exercises/practice/`), sorted. */
export async function benchmarkLanguages(root: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name);
  } catch (error) {
    throw new RuntimeInputError(
      `Cannot read the polyglot benchmark at ${root}: ${(error as Error).message}. Clone it first (see the README: taskweave eval --suite polyglot).`,
    );
  }
  const languages: string[] = [];
  for (const name of entries.sort()) if (await isDirectory(practiceDir(root, name))) languages.push(name);
  if (languages.length === 0)
    throw new RuntimeInputError(
      `${root} is not a polyglot benchmark checkout: no <language>/exercises/practice/ folder in it.`,
    );
  return languages;
}

/** Which exercises to take: languages and exercise names (all when empty), and at most `limit`. */
export interface ExerciseSelection {
  languages?: string[];
  /** Exercise names (`two-fer`) or `<language>/<name>`. */
  exercises?: string[];
  limit?: number;
}

/**
 * The exercises of a benchmark checkout, sorted by language and name, filtered by the selection;
 * an unknown language or exercise is an error naming the known ones.
 */
export async function discoverExercises(
  root: string,
  selection: ExerciseSelection = {},
): Promise<PolyglotExercise[]> {
  const known = await benchmarkLanguages(root);
  const wantedLanguages = selection.languages?.length ? [...new Set(selection.languages)] : known;
  const unknown = wantedLanguages.filter((language) => !known.includes(language));
  if (unknown.length > 0)
    throw new RuntimeInputError(
      `Unknown language ${unknown.join(', ')}. The benchmark has: ${known.join(', ')}.`,
    );
  const folders: { language: string; exercise: string }[] = [];
  for (const language of wantedLanguages) {
    const entries = await readdir(practiceDir(root, language), { withFileTypes: true });
    for (const entry of entries
      .filter((item) => item.isDirectory())
      .sort((a, b) => a.name.localeCompare(b.name)))
      folders.push({ language, exercise: entry.name });
  }
  const wanted = selection.exercises ?? [];
  const matches = (folder: { language: string; exercise: string }) =>
    wanted.length === 0 ||
    wanted.includes(folder.exercise) ||
    wanted.includes(`${folder.language}/${folder.exercise}`);
  const missing = wanted.filter(
    (name) =>
      !folders.some((folder) => name === folder.exercise || name === `${folder.language}/${folder.exercise}`),
  );
  if (missing.length > 0) {
    const near = [...new Set(missing.flatMap((name) => nearestExercises(name, folders)))];
    const suggestion = near.length > 0 ? ` Nearest: ${near.join(', ')}.` : '';
    throw new RuntimeInputError(
      `Unknown exercise ${missing.join(', ')} in ${wantedLanguages.join(', ')}.${suggestion} (See taskweave eval --suite polyglot --list.)`,
    );
  }
  const chosen = folders.filter(matches).slice(0, selection.limit ?? Number.POSITIVE_INFINITY);
  return Promise.all(chosen.map(({ language, exercise }) => loadExercise(root, language, exercise)));
}

/** How many edits away an exercise's name may be from a mistyped one to be suggested. */
const EXERCISE_SUGGESTION_EDITS = 3;
/** At most this many exercises are suggested for a mistyped one. */
const MAX_EXERCISE_SUGGESTIONS = 5;

/**
 * The exercises nearest a name that names none: those a few edits away (as `language/name` when
 * it was given so), then the same exercise in other languages.
 */
function nearestExercises(name: string, folders: { language: string; exercise: string }[]): string[] {
  const qualified = folders.map((folder) => `${folder.language}/${folder.exercise}`);
  const bare = name.split('/').at(-1) ?? name;
  const near = name.includes('/')
    ? nearestNames(name, qualified, EXERCISE_SUGGESTION_EDITS)
    : nearestNames(name, [...new Set(folders.map((folder) => folder.exercise))], EXERCISE_SUGGESTION_EDITS);
  const elsewhere = folders
    .filter((folder) => folder.exercise === bare)
    .map((folder) => `${folder.language}/${folder.exercise}`);
  return [...new Set([...near, ...elsewhere])]
    .filter((found) => found !== name)
    .slice(0, MAX_EXERCISE_SUGGESTIONS);
}

/** Reads one exercise's config and instructions; a missing or malformed part is an error naming the file. */
export async function loadExercise(
  root: string,
  language: string,
  exercise: string,
): Promise<PolyglotExercise> {
  const dir = path.join(practiceDir(root, language), exercise);
  const configFile = path.join(dir, '.meta', 'config.json');
  let value: unknown;
  try {
    value = JSON.parse(await readFile(configFile, 'utf8'));
  } catch (error) {
    throw new RuntimeInputError(`Cannot read the exercise config ${configFile}: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(value);
  if (!parsed.success)
    throw new RuntimeInputError(
      `The exercise config ${configFile} is not valid: ${describeIssues(parsed.error)}`,
    );
  const docs = ['introduction.md', 'instructions.md', 'instructions.append.md'];
  const texts = await Promise.all(docs.map((name) => readIfThere(path.join(dir, '.docs', name))));
  if (texts[1] === undefined)
    throw new RuntimeInputError(`The exercise ${dir} has no .docs/instructions.md.`);
  const { files } = parsed.data;
  return {
    name: `${language}/${exercise}`,
    language,
    exercise,
    dir,
    instructions: texts
      .filter((text) => text !== undefined)
      .map((text) => text.trim())
      .join('\n\n'),
    solutionFiles: files.solution,
    testFiles: files.test,
    exampleFiles: files.example,
  };
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
