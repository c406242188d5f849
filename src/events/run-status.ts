/**
 * How a run ends, as plain values: the store's schema and the listings read them without loading
 * the event registry's zod schemas (start-up of `tasks list` and `sessions list`).
 */
export const RUN_STATUSES = ['completed', 'stopped', 'max_steps', 'failed', 'needs_input'] as const;
