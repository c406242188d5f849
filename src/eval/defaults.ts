/** How many scenario runs go on at once when not told (rate limits: see `--concurrency`). */
export const DEFAULT_EVAL_CONCURRENCY = 2;

/** Where results go when `--out` is not given: a folder per eval under this one, in the project. */
export const DEFAULT_RESULTS_DIR = 'eval-results';
