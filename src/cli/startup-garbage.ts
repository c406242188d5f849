import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Collects a long-running command's start-up garbage (the bundle's modules, the store's opening,
 * the clones' preparation) once, when it is about to take work: `work --watch` before its first
 * claim, `serve` before it says its address. Left to V8, the first full collection of that heap
 * came a few seconds later, in the middle of the first goal or the first stream (30 to 70 ms of
 * collection on this 2-core machine: the slowest events of bench:cluster); here it costs the
 * start-up those 30 to 50 ms once, and the heap it leaves is the live one.
 *
 * V8 gives the collector's function only to contexts made while `--expose-gc` is set: one is made
 * for it, and the flag is set back. A runtime that refuses is left to collect when it will.
 */
export function collectStartupGarbage(): void {
  try {
    v8.setFlagsFromString('--expose-gc');
    const collect: unknown = vm.runInNewContext('gc');
    v8.setFlagsFromString('--no-expose-gc');
    if (typeof collect === 'function') collect();
  } catch {
    // No collector to call: nothing is lost but the timing.
  }
}
