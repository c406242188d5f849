/**
 * What a command tells the launcher (launch.ts) while it runs, through the hooks the launcher
 * gave main(): today, that a long-running command's first run has ended, so that the code cache
 * is written again with that run's code compiled (code-cache.ts). Run from source or a test,
 * there is no launcher and nothing is told.
 */
import type { EventBus } from '../events/bus.js';
import type { LaunchHooks } from './code-cache.js';

let hooks: LaunchHooks | undefined;

/** Keeps the launcher's hooks for the command main() runs. */
export function setLaunchHooks(launcher: LaunchHooks | undefined): void {
  hooks = launcher;
}

/**
 * Tells the launcher once when the first run on any of `buses` has ended (its
 * `response_complete`): a worker's first goal, a server's first session.
 */
export function warmAfterFirstRun(buses: readonly EventBus[]): void {
  const stops: (() => void)[] = [];
  let told = false;
  for (const bus of buses) {
    stops.push(
      bus.subscribe((event) => {
        if (told || event.type !== 'response_complete') return;
        told = true;
        for (const stop of stops) stop();
        // After the event's other listeners: the write (a few milliseconds) waits its turn.
        setImmediate(() => hooks?.warmed());
      }),
    );
  }
}
