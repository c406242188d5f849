import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelScriptInput } from '../../model/script-schema.js';
import { RuntimeInputError } from '../../runtime/index.js';
import type { PolyglotExercise } from './exercise.js';

/**
 * The script models the polyglot suite offers without an API key: `script:oracle` writes the
 * exercise's example solution (`.meta/config.json` `files.example`) over its solution files and
 * finishes; `script:lazy` says it is done without changing anything, on every try.
 */
export const POLYGLOT_SCRIPT_KINDS = ['oracle', 'lazy'] as const;

/** One of POLYGLOT_SCRIPT_KINDS. */
export type PolyglotScriptKind = (typeof POLYGLOT_SCRIPT_KINDS)[number];

/** The polyglot script kind a model name means (`script:oracle`, `script:lazy`), if any. */
export function polyglotScriptKind(model: string): PolyglotScriptKind | undefined {
  const name = model.startsWith('script:') ? model.slice('script:'.length) : '';
  return POLYGLOT_SCRIPT_KINDS.find((kind) => kind === name);
}

/** Builds the script a model of this kind plays for an exercise. */
export async function exerciseScript(
  exercise: PolyglotExercise,
  kind: PolyglotScriptKind,
): Promise<ModelScriptInput> {
  if (kind === 'lazy')
    return {
      turns: [
        { text: 'The code already does what the instructions ask.' },
        { text: 'The code is correct as it is; the tests must be wrong.' },
      ],
    };
  if (exercise.exampleFiles.length === 0)
    throw new RuntimeInputError(
      `${exercise.name} has no example solution (files.example) for script:oracle.`,
    );
  const toolCalls = await Promise.all(
    exercise.solutionFiles.slice(0, exercise.exampleFiles.length).map(async (file, index) => ({
      name: 'write_file',
      args: {
        path: file,
        content: await readFile(path.join(exercise.dir, exercise.exampleFiles[index]!), 'utf8'),
      },
    })),
  );
  return { turns: [{ text: 'Writing the solution.', toolCalls }, { text: 'The solution is written.' }] };
}
