import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildImportGraph, internalImports } from '../architecture/import-graph.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** What each room of runtime/ may import of runtime/ (runtime/README.md): arrows only point down. */
const ROOM_MAY_IMPORT: Record<string, readonly string[]> = {
  worker: ['answers', 'books', 'setup'],
  answers: ['setup'],
  books: ['setup'],
  'custom-commands': ['setup'],
  setup: [],
};
const FRONT_ENDS = ['cli', 'server', 'acp', 'eval'];
/**
 * The one front-end file still reaching into a room: the quick listing path, which another part
 * of issue 38 rewrites (it goes with the tricks).
 */
const NOT_YET_THROUGH_THE_FACE = new Set(['cli/quick-listing.ts → runtime/books/quick-listing.ts']);

/** An import between two files of src/, as paths relative to src/. */
interface Edge {
  from: string;
  to: string;
}

function sourceEdges(): Edge[] {
  const graph = buildImportGraph(SRC);
  return [...graph.files.keys()].flatMap((file) =>
    internalImports(graph, file).map(({ target }) => ({
      from: path.relative(SRC, file),
      to: path.relative(SRC, target),
    })),
  );
}

/** The room of runtime/ a file is in; `face` for a top-level file; undefined outside runtime/. */
function runtimePlace(file: string): string | undefined {
  const parts = file.split(path.sep);
  if (parts[0] !== 'runtime') return undefined;
  return parts.length === 2 ? 'face' : parts[1];
}

/** Every import that breaks the rooms of runtime/ or reaches past its face, in words. */
function roomViolations(edges: readonly Edge[]): string[] {
  const violations: string[] = [];
  for (const { from, to } of edges) {
    const target = runtimePlace(to);
    if (target === undefined) continue;
    const source = runtimePlace(from);
    const arrow = `${from} → ${to}`;
    if (source === undefined) {
      if (
        FRONT_ENDS.includes(from.split(path.sep)[0] ?? '') &&
        target !== 'face' &&
        !NOT_YET_THROUGH_THE_FACE.has(arrow)
      )
        violations.push(`${arrow}: a front end imports only the runtime's face (its top-level files)`);
      continue;
    }
    if (source === 'face' || source === target) continue;
    if (target === 'face') violations.push(`${arrow}: a room of runtime/ never imports the face`);
    else if (!(ROOM_MAY_IMPORT[source] ?? []).includes(target))
      violations.push(
        `${arrow}: ${source}/ may import ${ROOM_MAY_IMPORT[source]?.join(', ') || 'nothing'} of runtime/`,
      );
  }
  return violations;
}

describe('the rooms of runtime/', () => {
  it('import only down the rooms, never the face; front ends import only the face', () => {
    const edges = sourceEdges();
    expect(edges.some((edge) => edge.from.startsWith(`runtime${path.sep}worker`))).toBe(true);
    expect(roomViolations(edges)).toEqual([]);
  });

  it('a planted arrow back up, across or past the face is caught', () => {
    const planted: Edge[] = [
      { from: 'runtime/worker/resume.ts', to: 'runtime/runtime.ts' },
      { from: 'runtime/setup/errors.ts', to: 'runtime/books/session-book.ts' },
      { from: 'runtime/answers/give-answer.ts', to: 'runtime/worker/lease.ts' },
      { from: 'cli/main.ts', to: 'runtime/setup/errors.ts' },
      { from: 'runtime/worker/resume.ts', to: 'runtime/books/session-book.ts' },
      { from: 'server/app.ts', to: 'runtime/index.ts' },
    ];
    expect(roomViolations(planted)).toEqual([
      'runtime/worker/resume.ts → runtime/runtime.ts: a room of runtime/ never imports the face',
      'runtime/setup/errors.ts → runtime/books/session-book.ts: setup/ may import nothing of runtime/',
      'runtime/answers/give-answer.ts → runtime/worker/lease.ts: answers/ may import setup of runtime/',
      "cli/main.ts → runtime/setup/errors.ts: a front end imports only the runtime's face (its top-level files)",
    ]);
  });
});
