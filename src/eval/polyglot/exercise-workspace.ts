import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PolyglotExercise } from './exercise.js';
import type { PolyglotLanguage } from './languages.js';

/** The folders of an exercise the agent does not get: the reference solution and the instructions (given in the goal). */
const HIDDEN_FOLDERS = new Set(['.meta', '.docs']);

/** A throwaway folder for one exercise run, with the test files' fingerprints. */
export interface ExerciseFolder {
  root: string;
  workspace: string;
  /** sha256 of each test file as the run starts (after its skipped tests were switched on). */
  testHashes: Map<string, string>;
  dispose(): Promise<void>;
}

/**
 * Copies an exercise into a fresh workspace without `.meta/` (the example solution) and `.docs/`,
 * switches on its skipped tests, fingerprints the test files and copies a project config in.
 */
export async function prepareExerciseFolder(options: {
  exercise: PolyglotExercise;
  language: PolyglotLanguage;
  projectConfig?: string;
}): Promise<ExerciseFolder> {
  const { exercise, language } = options;
  const root = await mkdtemp(
    path.join(tmpdir(), `taskweave-polyglot-${exercise.language}-${exercise.exercise}-`),
  );
  // Named as the exercise: C++'s CMakeLists.txt takes the exercise's name from its folder's.
  const workspace = path.join(root, exercise.exercise);
  await cp(exercise.dir, workspace, {
    recursive: true,
    filter: (source) => !HIDDEN_FOLDERS.has(path.relative(exercise.dir, source).split(path.sep)[0] ?? ''),
  });
  if (language.unskip) {
    for (const file of exercise.testFiles) {
      const full = path.join(workspace, file);
      const text = await readFile(full, 'utf8').catch(() => undefined);
      if (text !== undefined) await writeFile(full, language.unskip(text));
    }
  }
  if (options.projectConfig !== undefined) {
    await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
    await cp(options.projectConfig, path.join(workspace, '.taskweave', 'config.json'));
  }
  return {
    root,
    workspace,
    testHashes: await hashFiles(workspace, exercise.testFiles),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/** The test files whose content is no longer what it was when the run started (changed or removed). */
export async function changedTestFiles(folder: ExerciseFolder): Promise<string[]> {
  const now = await hashFiles(folder.workspace, [...folder.testHashes.keys()]);
  return [...folder.testHashes].filter(([file, hash]) => now.get(file) !== hash).map(([file]) => file);
}

async function hashFiles(workspace: string, files: string[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const file of files) {
    const content = await readFile(path.join(workspace, file)).catch(() => undefined);
    hashes.set(file, content === undefined ? 'missing' : createHash('sha256').update(content).digest('hex'));
  }
  return hashes;
}
