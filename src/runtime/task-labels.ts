/*
 * Face: what front ends print about queued tasks without opening anything: the default queue's
 * name and the words a task blocked waiting for the user gives as its reason. Light: no store,
 * no SDK (the quick `tasks list` path loads it).
 */
export { DEFAULT_QUEUE } from '../store/defaults.js';
export { NEEDS_INPUT_PREFIX } from './answers/waiting-session.js';
