import { EXIT } from '../exit-codes.js';

/** What to do when the reader of stdout went away (`taskweave … | head`). */
type ClosedHandler = () => void;

const handlers = new Set<ClosedHandler>();
let closed = false;
/** A command registered a handler: it ends by itself, with its own exit code. */
let handled = false;

/**
 * Makes a reader that goes away (EPIPE: `| head` has read its lines) end taskweave quietly
 * instead of with a stack trace: nothing more is written to that stream, and a running command
 * stops its run through the handler it registered. A command that ran something and is ending
 * (its handler gone: the write that failed was its last words) ends with its own exit code, the
 * run's status; a command that never ran anything (a listing) exits at once.
 */
export function guardClosedOutput(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (closed) return;
    closed = true;
    // Later writes would fail again: they go nowhere.
    stream.write = (() => true) as typeof stream.write;
    if (handlers.size === 0 && !handled) process.exit(EXIT.completed);
    for (const handler of handlers) handler();
  });
}

/** Registers what stops the current work when stdout closes; returns what unregisters it. */
export function onOutputClosed(handler: ClosedHandler): () => void {
  handlers.add(handler);
  handled = true;
  return () => handlers.delete(handler);
}

/** Whether stdout's reader went away. */
export function outputClosed(): boolean {
  return closed;
}
