import { createTwoFilesPatch } from 'diff';

/** Lines of context around each change in a preview diff. */
const DIFF_CONTEXT_LINES = 3;

/** A unified diff of a file change, for the user to approve (a new file diffs against /dev/null). */
export function fileDiff(options: {
  path: string;
  before: string;
  after: string;
  created?: boolean;
}): string {
  const from = options.created ? '/dev/null' : `a/${options.path}`;
  const patch = createTwoFilesPatch(from, `b/${options.path}`, options.before, options.after, '', '', {
    context: DIFF_CONTEXT_LINES,
  });
  // The first line is an `Index:`-style separator of `====`; the headers follow.
  return patch
    .split('\n')
    .filter((line) => !/^=+$/.test(line))
    .map((line) => (line.startsWith('--- ') || line.startsWith('+++ ') ? line.trimEnd() : line))
    .join('\n')
    .trimEnd();
}
