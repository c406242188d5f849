/** The step budget of a run when none is given. */
export const DEFAULT_MAX_STEPS = 50;
