import type { PolyglotExercise } from './exercise.js';

/** The most lines of failing test output the second try gets (Aider keeps the first 50). */
export const FEEDBACK_MAX_LINES = 50;
/** The most characters of failing test output the second try gets (long lines are cut too). */
export const FEEDBACK_MAX_CHARS = 6_000;

/**
 * The first try's goal: the exercise's instructions, then the files to change and the tests that
 * must not change, in the spirit of Aider's benchmark prompt.
 */
export function exerciseGoal(exercise: PolyglotExercise): string {
  return [
    exercise.instructions,
    '',
    '####',
    '',
    `Use the instructions above to change these files: ${exercise.solutionFiles.join(' ')}`,
    `The tests are in ${exercise.testFiles.join(' ')}; they are correct: do not change them.`,
    'Keep the names of the existing functions, classes and types: the tests use them.',
    'Use only the standard library of the language; do not install packages.',
  ].join('\n');
}

/**
 * The second try's message: the failing test output (cut to FEEDBACK_MAX_LINES lines and
 * FEEDBACK_MAX_CHARS characters), and what to do about it.
 */
export function retryGoal(exercise: PolyglotExercise, testOutput: string): string {
  return [
    feedbackText(testOutput),
    '',
    '####',
    '',
    'The tests failed with the output above. The tests are correct: do not change them.',
    `Fix the code in ${exercise.solutionFiles.join(' ')} so that they pass.`,
  ].join('\n');
}

/** Test output as the model sees it: the first lines, within the character limit. */
export function feedbackText(testOutput: string): string {
  const lines = testOutput.trimEnd().split('\n');
  let text = lines.slice(0, FEEDBACK_MAX_LINES).join('\n');
  if (text.length > FEEDBACK_MAX_CHARS) text = `${text.slice(0, FEEDBACK_MAX_CHARS)}…`;
  const cut = lines.length > FEEDBACK_MAX_LINES || text.endsWith('…');
  return cut ? `${text}\n[test output cut: ${lines.length} lines in all]` : text;
}
