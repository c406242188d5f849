import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PolyglotExercise } from '../../../src/eval/polyglot/exercise.js';
import { exerciseScript } from '../../../src/eval/polyglot/exercise-script.js';

async function exercise(
  files: Pick<PolyglotExercise, 'solutionFiles' | 'exampleFiles'>,
): Promise<PolyglotExercise> {
  const dir = await mkdtemp(path.join(tmpdir(), 'taskweave-exercise-script-'));
  for (const example of files.exampleFiles) {
    await mkdir(path.dirname(path.join(dir, example)), { recursive: true });
    await writeFile(path.join(dir, example), `// ${path.basename(example)}\n`);
  }
  return { name: 'x/y', language: 'x', exercise: 'y', dir, instructions: '', testFiles: [], ...files };
}

function writes(script: Awaited<ReturnType<typeof exerciseScript>>): Record<string, unknown> {
  const calls = script.turns[0]?.toolCalls ?? [];
  return Object.fromEntries(
    calls.map((call) => [(call.args as { path: string }).path, (call.args as { content: string }).content]),
  );
}

describe('the polyglot oracle script', () => {
  it('writes each example over the solution file of its name or its extension', async () => {
    const cpp = await exercise({
      solutionFiles: ['meetup.cpp', 'meetup.h'],
      exampleFiles: ['.meta/example.h'],
    });
    expect(writes(await exerciseScript(cpp, 'oracle'))).toEqual({
      'meetup.h': '// example.h\n',
      'meetup.cpp': '#include "meetup.h"\n',
    });
    const java = await exercise({
      solutionFiles: ['src/main/java/Poker.java'],
      exampleFiles: ['.meta/src/reference/java/Card.java', '.meta/src/reference/java/Poker.java'],
    });
    expect(writes(await exerciseScript(java, 'oracle'))).toEqual({
      'src/main/java/Card.java': '// Card.java\n',
      'src/main/java/Poker.java': '// Poker.java\n',
    });
    const python = await exercise({ solutionFiles: ['two_fer.py'], exampleFiles: ['.meta/example.py'] });
    expect(writes(await exerciseScript(python, 'oracle'))).toEqual({ 'two_fer.py': '// example.py\n' });
  });

  it('the lazy script changes nothing', async () => {
    const python = await exercise({ solutionFiles: ['two_fer.py'], exampleFiles: ['.meta/example.py'] });
    const script = await exerciseScript(python, 'lazy');
    expect(script.turns.flatMap((turn) => turn.toolCalls ?? [])).toEqual([]);
  });
});
