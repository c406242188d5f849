import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelScriptInput } from '../../runtime/configuration.js';
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
  const writes = new Map<string, string>();
  const named = new Set(exercise.exampleFiles.map((example) => path.basename(example)));
  // Solution files an example of the same name goes to are not taken by another's extension.
  const free = exercise.solutionFiles.filter((file) => !named.has(path.basename(file)));
  for (const example of exercise.exampleFiles) {
    const content = await readFile(path.join(exercise.dir, example), 'utf8');
    writes.set(targetOf(example, exercise.solutionFiles, free, writes), content);
  }
  // A C++ stub beside a header-only example: the stub's definitions would clash with the header's.
  const header = [...writes.keys()].find((file) => file.endsWith('.h'));
  for (const file of exercise.solutionFiles) {
    if (!writes.has(file) && header !== undefined && file.endsWith('.cpp'))
      writes.set(file, `#include "${path.basename(header)}"\n`);
  }
  const toolCalls = [...writes].map(([file, content]) => ({
    name: 'write_file',
    args: { path: file, content },
  }));
  return { turns: [{ text: 'Writing the solution.', toolCalls }, { text: 'The solution is written.' }] };
}

/**
 * Where an example file goes: the solution file of the same name (Java's `Poker.java`), else the
 * first one of the same extension not yet written (`.meta/example.h` → `meetup.h`), else a new
 * file of its name beside the first solution file (Java's helper classes).
 */
function targetOf(
  example: string,
  solutionFiles: string[],
  free: string[],
  written: Map<string, string>,
): string {
  const name = path.basename(example);
  const sameName = solutionFiles.find((file) => path.basename(file) === name);
  if (sameName !== undefined) return sameName;
  const sameExtension = free.find(
    (file) => path.extname(file) === path.extname(example) && !written.has(file),
  );
  return sameExtension ?? path.join(path.dirname(solutionFiles[0]!), name);
}
