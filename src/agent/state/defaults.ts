/** The step budget of a run when none is given. */
export const DEFAULT_MAX_STEPS = 50;

/** How long a question waits for an answer by default before the agent goes on alone. */
export const DEFAULT_INPUT_TIMEOUT_MS = 10 * 60_000;
