/**
 * How alike two strings are, from 0 (nothing shared) to 1 (equal): the Dice coefficient of their
 * character pairs. Linear in the lengths, so it can rank every line of a large file.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let index = 0; index < a.length - 1; index++) {
    const pair = a.slice(index, index + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let index = 0; index < b.length - 1; index++) {
    const pair = b.slice(index, index + 2);
    const left = pairs.get(pair) ?? 0;
    if (left > 0) {
      pairs.set(pair, left - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

export interface MostSimilarOptions<T> {
  /** The text of a candidate to compare with the target. */
  textOf: (candidate: T) => string;
  /** At most this many candidates are returned. */
  limit: number;
  /** Candidates scoring below this are left out. */
  minScore: number;
}

/** The candidates most like `target`, best first; ties keep their original order. */
export function mostSimilar<T>(
  target: string,
  candidates: readonly T[],
  options: MostSimilarOptions<T>,
): T[] {
  return candidates
    .map((candidate, index) => ({ candidate, index, score: similarity(target, options.textOf(candidate)) }))
    .filter((entry) => entry.score >= options.minScore)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, options.limit)
    .map((entry) => entry.candidate);
}
