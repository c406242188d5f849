import type { EventPayload } from '../../events/registry.js';

/** Emits one event of the current run (the run id and envelope are filled in by the bus). */
export type Emit = (payload: EventPayload) => void;
