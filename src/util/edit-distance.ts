/**
 * How many single-character edits (insert, delete, replace, or swap of two neighbours) turn `a`
 * into `b`: the optimal string alignment distance, the measure commander uses for its own
 * "did you mean" (its helper is not exported). Stops counting past `limit`, returning `limit + 1`.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(cell(previous, j) + 1, cell(current, j - 1) + 1, cell(previous, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, cell(beforePrevious, j - 2) + 1);
      }
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(cell(previous, b.length), limit + 1);
}

/** A filled cell of a row of the distance table. */
function cell(row: readonly number[], index: number): number {
  return row[index] ?? Number.POSITIVE_INFINITY;
}

/**
 * The candidates closest to `word` (case-insensitive), at most `maxDistance` edits away, nearest
 * first (ties keep the candidates' order); none when `word` is one of them.
 */
export function nearestNames(word: string, candidates: readonly string[], maxDistance: number): string[] {
  const lower = word.toLowerCase();
  const scored = [...new Set(candidates)]
    .map((name) => ({ name, distance: editDistance(lower, name.toLowerCase(), maxDistance) }))
    .filter((entry) => entry.distance <= maxDistance);
  if (scored.some((entry) => entry.distance === 0)) return [];
  const best = Math.min(...scored.map((entry) => entry.distance));
  return scored.filter((entry) => entry.distance === best).map((entry) => entry.name);
}
