import { EXIT } from './exit-codes.js';

/** What to do when the reader of stdout went away (`taskweave … | head`). */
type ClosedHandler = () => void;

const handlers = new Set<ClosedHandler>();
let closed = false;

/**
 * Makes a reader that goes away (EPIPE: `| head` has read its lines) end taskweave quietly
 * instead of with a stack trace: nothing more is written to that stream, and a running command
 * stops its run through the handler it registered; a command with nothing running exits at once.
 */
export function guardClosedOutput(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (closed) return;
    closed = true;
    // Later writes would fail again: they go nowhere.
    stream.write = (() => true) as typeof stream.write;
    if (handlers.size === 0) process.exit(EXIT.completed);
    for (const handler of handlers) handler();
  });
}

/** Registers what stops the current work when stdout closes; returns what unregisters it. */
export function onOutputClosed(handler: ClosedHandler): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/** Whether stdout's reader went away. */
export function outputClosed(): boolean {
  return closed;
}
