import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/ports.js';
import type { LeaseTerms } from './lease-terms.js';
import type { NoticeSink } from './notices.js';
import type { RunFactory } from './run-factory.js';
import type { StopRequest } from './stop-request.js';

/**
 * What the queue worker works with, each given by the runtime that owns it: the store, the bus
 * its stored answers are announced on, the factory of its runs, where its notices go, the terms
 * of its leases, and whether the process is stopping. Nothing in it calls back into the runtime.
 */
export interface WorkerDeps {
  store: Store;
  bus: EventBus;
  runs: RunFactory;
  notices: NoticeSink;
  leases: LeaseTerms;
  stop: Pick<StopRequest, 'requested'>;
}
